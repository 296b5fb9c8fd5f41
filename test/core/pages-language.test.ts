import { describe, expect, it } from "vitest";
import { verifiedLetterPage } from "../../src/pages/verify-surat";
import { type CallInit, call, unique } from "../helpers/harness";
import { insertTicket } from "../modules/support/helpers";

const INDONESIAN = "id-ID,id;q=0.9,en;q=0.8";
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

/** Issue 30 item 3: the three HTML pages speak Indonesian when asked, English otherwise. */
describe("the HTML pages' language", () => {
  it("the reset page: Indonesian for id, English without the header or when English comes first", async () => {
    const id = await page("/reset-password?token=abc", INDONESIAN);
    expectLanguage(id, "id");
    expect(id.html).toContain("Atur kata sandi");
    for (const header of [undefined, ENGLISH_FIRST, "fr-FR"]) {
      const en = await page("/reset-password?token=abc", header);
      expectLanguage(en, "en");
      expect(en.html).toContain("Set your password");
      expect(en.html).not.toContain("Kata sandi");
    }
    const form = (lang?: string) =>
      page("/reset-password", lang, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          token: "x",
          password: "kata-sandi-1",
          confirm: "kata-sandi-2",
        }).toString(),
      });
    const mismatchEn = await form();
    expect(mismatchEn.status).toBe(400);
    expect(mismatchEn.html).toContain("The two passwords are not the same.");
    expect((await form("id")).html).toContain("Kedua kata sandi tidak sama.");
    const badToken = (lang?: string) =>
      page("/reset-password", lang, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          token: "x",
          password: "kata-sandi-1",
          confirm: "kata-sandi-1",
        }).toString(),
      });
    const refusedEn = await badToken();
    expectLanguage(refusedEn, "en");
    expect(refusedEn.html).toContain("This link is not valid");
    expect((await badToken("id")).html).toContain("Tautan ini tidak berlaku");
  });

  it("the ticket reply page: the thread's frame and the not-found page in both languages", async () => {
    const { token } = await insertTicket({ tenant: null, createdAt: new Date().toISOString() });
    const id = await page(`/support/reply/${token}?terkirim=1`, INDONESIAN);
    expectLanguage(id, "id");
    expect(id.html).toContain("Balas tiket");
    expect(id.html).toContain("Balasan Anda sudah terkirim.");
    expect(id.html).toContain("Tiket uji");
    const en = await page(`/support/reply/${token}?terkirim=1`);
    expectLanguage(en, "en");
    expect(en.html).toContain("Reply to this ticket");
    expect(en.html).toContain("Your reply has been sent.");
    expect(en.html).toContain(">New</span>");
    // The ticket's own words stay as written.
    expect(en.html).toContain("Tiket uji");
    const empty = await page(`/support/reply/${token}`, undefined, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "message=halo",
    });
    expect(empty.status).toBe(415);
    expectLanguage(empty, "en");
    expect(empty.html).toContain("The form is incomplete");
    const missing = await page(`/support/reply/${"E".repeat(43)}`);
    expect(missing.status).toBe(404);
    expect(missing.html).toContain("Ticket not found");
    expect((await page(`/support/reply/${"E".repeat(43)}`, "id")).html).toContain("Tiket tidak ditemukan");
  });

  it("the letter verification page: an unknown code in both languages, a valid letter's labels in both", async () => {
    const code = `${unique("rt")}.ABCDEFGH`;
    const en = await page(`/verify/surat/${code}`);
    expect(en.status).toBe(404);
    expectLanguage(en, "en");
    expect(en.html).toContain("Letter not found");
    const id = await page(`/verify/surat/${code}`, INDONESIAN);
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
});
