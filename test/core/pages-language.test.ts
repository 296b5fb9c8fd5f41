import { describe, expect, it } from "vitest";
import { verifiedLetterPage } from "../../src/pages/verify-surat";
import { type CallInit, call, unique } from "../helpers/harness";
import { insertTicket } from "../modules/support/helpers";

const ENGLISH_FIRST = "en-US,en;q=0.9,id;q=0.5";

async function page(path: string, acceptLanguage?: string, init: CallInit = {}) {
  const headers = { ...init.headers, ...(acceptLanguage ? { "Accept-Language": acceptLanguage } : {}) };
  const res = await call(path, { ...init, headers });
  return {
    status: res.status,
    language: res.headers.get("Content-Language"),
    vary: res.headers.get("Vary") ?? "",
    html: await res.text(),
  };
}

function expectLanguage(p: Awaited<ReturnType<typeof page>>, lang: "id" | "en") {
  expect(p.language).toBe(lang);
  expect(p.vary).toContain("Accept-Language");
  expect(p.html).toContain(`<html lang="${lang}">`);
}

/**
 * Issue 30 item 3, issue 42: the HTML pages speak Indonesian, as the emails that link to them do;
 * English only when the caller asks (`?lang=en`, or an Accept-Language that puts English first).
 */
describe("the HTML pages' language", () => {
  it("the ticket reply page: the thread's frame and the not-found page in both languages", async () => {
    const { token } = await insertTicket({ tenant: null, createdAt: new Date().toISOString() });
    const id = await page(`/support/reply/${token}?terkirim=1`);
    expectLanguage(id, "id");
    expect(id.html).toContain("Balas tiket");
    expect(id.html).toContain("Balasan Anda sudah terkirim.");
    expect(id.html).toContain("Tiket uji");
    const en = await page(`/support/reply/${token}?terkirim=1&lang=en`);
    expectLanguage(en, "en");
    expect(en.html).toContain(`action="/support/reply/${token}?lang=en"`);
    expect(en.html).toContain("Reply to this ticket");
    expect(en.html).toContain("Your reply has been sent.");
    expect(en.html).toContain(">New</span>");
    // The ticket's own words stay as written.
    expect(en.html).toContain("Tiket uji");
    const empty = await page(`/support/reply/${token}`, ENGLISH_FIRST, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "message=halo",
    });
    expect(empty.status).toBe(415);
    expectLanguage(empty, "en");
    expect(empty.html).toContain("The form is incomplete");
    const missing = await page(`/support/reply/${"E".repeat(43)}`, "en");
    expect(missing.status).toBe(404);
    expect(missing.html).toContain("Ticket not found");
    expect((await page(`/support/reply/${"E".repeat(43)}`)).html).toContain("Tiket tidak ditemukan");
  });

  it("the letter verification page: an unknown code in both languages, a valid letter's labels in both", async () => {
    const code = `${unique("rt")}.ABCDEFGH`;
    const en = await page(`/verify/surat/${code}?lang=en`);
    expect(en.status).toBe(404);
    expectLanguage(en, "en");
    expect(en.html).toContain("Letter not found");
    const id = await page(`/verify/surat/${code}`);
    expectLanguage(id, "id");
    expect(id.html).toContain("Surat tidak ditemukan");

    const letter = {
      tenantName: "RT 001 / RW 005 Sukamaju",
      nomorSurat: "001/SKD/2026",
      jenisName: "Surat Keterangan Domisili",
      tanggalSurat: "20 November 2026",
      subjectName: "Budi Santoso",
      signatory: { name: "Bambang Sutrisno", title: "Ketua RT 001" },
      rw: { status: "menunggu" as const },
    };
    const english = verifiedLetterPage(letter, "en");
    expect(english).toContain("This letter is valid");
    expect(english).toContain("<dt>Letter number</dt><dd>001/SKD/2026</dd>");
    expect(english).toContain("Awaiting the RW head's acknowledgement");
    expect(english).toContain("Surat Keterangan Domisili");
    const indonesian = verifiedLetterPage(letter, "id");
    expect(indonesian).toContain("Surat ini sah (valid)");
    expect(indonesian).toContain("Menunggu diketahui Ketua RW");
  });

  it("the guest pass page: an unknown pass in Indonesian by default, English when asked", async () => {
    const id = await page("/tamu/bukan-kartu");
    expect(id.status).toBe(404);
    expectLanguage(id, "id");
    expect(id.html).toContain("Kartu tamu tidak ditemukan");
    for (const [path, header] of [
      ["/tamu/bukan-kartu?lang=en", undefined],
      ["/tamu/bukan-kartu", ENGLISH_FIRST],
    ] as const) {
      const en = await page(path, header);
      expectLanguage(en, "en");
      expect(en.html).toContain("Guest pass not found");
    }
  });
});
