import { expect } from "vitest";
import type { Journey } from "../../web/harness";

// Each journey signs in as its own people, so the other sections' journeys on the same server see what
// they expect: RT 01's resident and secretary prepare letters through the API only; RT 02's admin owns
// the support desk and the settings; the RW's head acknowledges.
const RESIDENT = "warga1.rt01@warga.test";
const SECRETARY = "sekretaris.rt01@warga.test";
const RW_HEAD = "admin.rw05@warga.test";
const RT_ADMIN = "admin.rt02@warga.test";
const OPERATOR = "operator@warga.test";

/** A 1 × 1 PNG, as a phone's camera would hand over a photo (the API recognises images by their bytes). */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const DESK = { width: 1280, height: 800 };

/** A letter RT 01's resident asks for and its secretary finishes: RT 01 waits for the RW's acknowledgement. */
async function letterWaitingForRw(
  app: Parameters<Journey["run"]>[0],
  keperluan: string,
): Promise<{ id: string; nomorSurat: string }> {
  const resident = await app.apiAs(RESIDENT);
  const created = await resident("POST", "/api/surat", {
    jenis: "domisili",
    onBehalfOf: "self",
    keperluan,
    fields: { sejak: "2019-03-01" },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const secretary = await app.apiAs(SECRETARY);
  const finished = await secretary("PUT", `/api/surat/${id}`, { status: "selesai" });
  expect(finished.status, await finished.clone().text()).toBe(200);
  const { nomorSurat } = (await finished.json()) as { nomorSurat: string };
  return { id, nomorSurat };
}

/** Community settings and the RW's console (issue 46 items 9 and 10). */
export const communityJourneys: Journey[] = [
  {
    name: "the RW head acknowledges a letter and declines another with a reason",
    run: async (app) => {
      const first = await letterWaitingForRw(app, "Persyaratan pembukaan rekening bank");
      const second = await letterWaitingForRw(app, "Persyaratan pengurusan izin usaha");

      const page = await app.page(DESK);
      await app.signIn(page, RW_HEAD);
      await page.goto(`${app.url}/pengurus/surat-rw`);
      await page.getByRole("heading", { level: 1, name: "Surat menunggu RW" }).waitFor();
      await app.settled(page);
      const ack = page.getByRole("button", {
        name: `Mengetahui surat ${first.nomorSurat} untuk `,
        exact: false,
      });
      await ack.waitFor();
      expect(await app.seriousViolations(page), "surat-rw: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-community-rw-letters-desktop");

      // The notice and the list's reload placeholder come in one render (not the old rows first): at the
      // moment the notice shows, nothing offers to answer the letter again.
      await ack.click();
      await page.getByRole("status").getByText(`Surat ${first.nomorSurat} untuk`).waitFor();
      expect(await ack.count()).toBe(0);
      await app.settled(page);

      // The second, declined with a reason in the confirmation dialog.
      await page
        .getByRole("button", { name: `Tolak surat ${second.nomorSurat} untuk `, exact: false })
        .click();
      const dialog = page.getByRole("dialog", { name: `Tolak surat ${second.nomorSurat}?` });
      await dialog.waitFor();
      await dialog
        .getByLabel("Alasan penolakan")
        .fill("Alamat domisili belum sesuai data RW; mohon diperiksa.");
      expect(await app.seriousViolations(page), "decline dialog: axe serious/critical").toEqual([]);
      await dialog.getByRole("button", { name: "Tolak" }).click();
      await page.getByRole("status").getByText(`Surat ${second.nomorSurat} untuk`).waitFor();
      expect(
        await page
          .getByRole("button", { name: `Tolak surat ${second.nomorSurat} untuk `, exact: false })
          .count(),
      ).toBe(0);
      await app.settled(page);

      // Both are in their own lists, the decline with its reason.
      await page.getByLabel("Tampilkan").selectOption("diketahui");
      await app.settled(page);
      await page.getByText(first.nomorSurat).first().waitFor();
      await page.getByLabel("Tampilkan").selectOption("ditolak");
      await app.settled(page);
      await page.getByText("Alamat domisili belum sesuai data RW", { exact: false }).first().waitFor();
      expect(await app.seriousViolations(page), "surat-rw ditolak: axe serious/critical").toEqual([]);

      // The RT's secretary sees the RW's answers on the letters.
      const secretary = await app.apiAs(SECRETARY);
      const acknowledged = (await (await secretary("GET", `/api/surat/${first.id}`)).json()) as {
        rwAcknowledgement: { status: string } | null;
      };
      expect(acknowledged.rwAcknowledgement?.status).toBe("diketahui");

      // On a phone, the queue is a list of cards.
      const phone = await app.page();
      await app.signIn(phone, RW_HEAD);
      await phone.goto(`${app.url}/pengurus/surat-rw?status=diketahui`);
      await phone.getByRole("heading", { level: 1, name: "Surat menunggu RW" }).waitFor();
      await app.settled(phone);
      await phone.getByText(first.nomorSurat).first().waitFor();
      expect(await app.seriousViolations(phone), "surat-rw phone: axe serious/critical").toEqual([]);
      await app.screenshot(phone, "console-community-rw-letters-360");
    },
  },
  {
    name: "a community admin opens a support ticket with a photo and sees the thread",
    run: async (app) => {
      const page = await app.page();
      await app.signIn(page, RT_ADMIN);
      await page.goto(`${app.url}/pengurus/pengaturan`);
      await page.getByRole("heading", { level: 1, name: "Pengaturan komunitas" }).waitFor();
      await page.getByRole("link", { name: /Tiket bantuan/ }).click();
      await page.getByRole("heading", { level: 1, name: "Tiket bantuan" }).waitFor();
      await app.settled(page);
      const before = Number(
        (await page.locator(".set-counts li").first().locator("strong").textContent()) ?? "0",
      );

      await page.getByRole("link", { name: "Buat tiket" }).click();
      await page.getByRole("heading", { level: 1, name: "Buat tiket" }).waitFor();
      await app.settled(page);
      const title = `Impor data KK gagal ${Date.now()}`;
      await page.getByLabel("Kategori").selectOption("data");
      await page.getByLabel("Judul").fill(title);
      await page
        .getByLabel("Uraian")
        .fill(
          "Saat mengunggah berkas Excel data KK muncul pesan galat pada baris 12. Tangkapan layar terlampir.",
        );
      await page
        .getByLabel("Pilih dari galeri")
        .setInputFiles({ name: "galat.png", mimeType: "image/png", buffer: PNG });
      await page.getByRole("img", { name: "Foto 1 yang dipilih" }).waitFor();
      expect(await app.seriousViolations(page), "new ticket: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-community-ticket-new-360");
      await page.getByRole("button", { name: "Kirim tiket" }).click();

      // The thread: the ticket with its evidence photo.
      await page.getByRole("heading", { level: 1, name: new RegExp(title) }).waitFor();
      await app.settled(page);
      await page.getByRole("img", { name: "Foto bukti tiket" }).waitFor();
      const id = new URL(page.url()).pathname.split("/").at(-1) ?? "";
      expect(id).not.toBe("baru");

      // In the list, counted.
      await page.getByRole("link", { name: "← Tiket bantuan" }).click();
      await page.getByRole("link", { name: new RegExp(title) }).waitFor();
      await app.settled(page);
      const after = Number(
        (await page.locator(".set-counts li").first().locator("strong").textContent()) ?? "0",
      );
      expect(after).toBe(before + 1);
      // Filtered by status "Baru" and today's date (Asia/Jakarta), it is still there.
      const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date());
      await page.getByLabel("Status").selectOption("baru");
      await page.getByLabel("Dari tanggal").fill(today);
      await page.getByLabel("Sampai tanggal").fill(today);
      await page.getByRole("button", { name: "Terapkan" }).click();
      await page.waitForURL(/status=baru/);
      await app.settled(page);
      await page.getByRole("link", { name: new RegExp(title) }).waitFor();
      expect(await app.seriousViolations(page), "tickets: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-community-tickets-360");

      // The operator answers through the platform's route; the admin sees it in the thread and replies.
      const operator = await app.apiAs(OPERATOR);
      const answered = await operator("PATCH", `/api/platform/support-tickets/${id}`, {
        message: "Terima kasih, kolom tanggal lahir pada baris 12 kosong. Silakan lengkapi lalu impor ulang.",
        status: "diproses",
      });
      expect(answered.status, await answered.clone().text()).toBe(200);
      const desk = await app.page(DESK);
      await app.signIn(desk, RT_ADMIN);
      await desk.goto(`${app.url}/pengurus/pengaturan/bantuan/${id}`);
      await desk.getByText("kolom tanggal lahir pada baris 12 kosong", { exact: false }).waitFor();
      await app.settled(desk);
      await desk.getByText("Diproses", { exact: true }).first().waitFor();
      await desk.getByLabel("Balasan").fill("Sudah kami lengkapi dan impor ulang berhasil. Terima kasih.");
      await desk.getByRole("button", { name: "Kirim balasan" }).click();
      await desk.getByRole("status").getByText("Balasan terkirim.").waitFor();
      await desk.getByText("impor ulang berhasil", { exact: false }).waitFor();
      expect(await app.seriousViolations(desk), "thread: axe serious/critical").toEqual([]);
      await app.screenshot(desk, "console-community-ticket-thread-desktop");
    },
  },
  {
    name: "the settings (subscription, archive) and the RW overview read well on a phone and a desktop",
    run: async (app) => {
      for (const [viewport, size] of [
        [undefined, "360"],
        [DESK, "desktop"],
      ] as const) {
        const page = await app.page(viewport);
        await app.signIn(page, RT_ADMIN);
        await page.goto(`${app.url}/pengurus/pengaturan`);
        await page.getByRole("heading", { level: 1, name: "Pengaturan komunitas" }).waitFor();
        await app.settled(page);
        await page.getByRole("heading", { name: "Pengaturan surat" }).waitFor();
        // The modules as the operator set them, read-only.
        await page.getByRole("heading", { name: "Modul aktif" }).waitFor();
        await page
          .locator(".set-flags li")
          .filter({ hasText: "Surat pengantar" })
          .getByText("Aktif")
          .waitFor();
        expect(await app.seriousViolations(page), `settings ${size}: axe`).toEqual([]);
        await app.screenshot(page, `console-community-settings-${size}`);

        await page.getByRole("link", { name: /Langganan & tagihan/ }).click();
        await page.getByRole("heading", { level: 1, name: "Langganan & tagihan" }).waitFor();
        await app.settled(page);
        // RT 02's voided invoice from the seed, with its reason.
        await page.getByText("Salah paket", { exact: false }).first().waitFor();
        expect(await app.seriousViolations(page), `subscription ${size}: axe`).toEqual([]);
        await app.screenshot(page, `console-community-subscription-${size}`);

        await page.goto(`${app.url}/pengurus/pengaturan/arsip`);
        await page.getByRole("heading", { level: 1, name: "Arsip data" }).waitFor();
        await app.settled(page);
        if (size === "360") {
          // An export: followed while it is built, then ready to download.
          await page.getByRole("button", { name: "Buat arsip baru" }).click();
          await page
            .getByRole("button", { name: /^Unduh arsip/ })
            .first()
            .waitFor();
          await app.settled(page);
        }
        expect(await app.seriousViolations(page), `archives ${size}: axe`).toEqual([]);
        await app.screenshot(page, `console-community-archives-${size}`);

        const rw = await app.page(viewport);
        await app.signIn(rw, RW_HEAD);
        await rw.goto(`${app.url}/pengurus`);
        await rw.getByRole("heading", { level: 1, name: "Ringkasan RW" }).waitFor();
        await app.settled(rw);
        await rw.getByRole("cell", { name: "RT 01 / RW 05 Sukamaju", exact: false }).first().waitFor();
        expect(await app.seriousViolations(rw), `rw overview ${size}: axe`).toEqual([]);
        await app.screenshot(rw, `console-community-rw-overview-${size}`);

        await rw.goto(`${app.url}/pengurus/rt`);
        await rw.getByRole("heading", { level: 1, name: "RT di bawah RW" }).waitFor();
        await app.settled(rw);
        await rw.getByText("rt-02-sukamaju").first().waitFor();
        expect(await app.seriousViolations(rw), `rw links ${size}: axe`).toEqual([]);
        await app.screenshot(rw, `console-community-rw-links-${size}`);
      }
    },
  },
];
