import { readFile } from "node:fs/promises";
import type { Download, Locator, Page } from "playwright-core";
import { expect } from "vitest";
import type { Journey, WebApp } from "../../web/harness";

// Only these change data here (warga2 is no other journey's resident), so the other sections' journeys on
// the same server see what they expect.
const RESIDENT = "warga2.rt01@warga.test";
const SECRETARY = "sekretaris.rt01@warga.test";
// Gate devices are the admin's alone (src/modules/gate: ROLES.ADMIN).
const ADMIN = "admin.rt01@warga.test";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 640 };

/** axe on the screen as it is, then a screenshot at the desktop's width and at a phone's. */
async function check(app: WebApp, page: Page, name: string) {
  // Out of the field just typed in: resized with a field focused, Chromium scrolls the page on the
  // next press to bring that field back, and the press's mouse-up lands off the button (no click).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await app.settled(page);
  expect(await app.seriousViolations(page), `${name}: axe serious/critical`).toEqual([]);
  const size = page.viewportSize() ?? DESKTOP;
  await page.setViewportSize(DESKTOP);
  await app.screenshot(page, `console-${name}-desktop`);
  await page.setViewportSize(PHONE);
  await app.settled(page);
  expect(await app.seriousViolations(page), `${name} at 360 px: axe serious/critical`).toEqual([]);
  await app.screenshot(page, `console-${name}-360`);
  await page.setViewportSize(size);
}

/**
 * Presses a download button and answers the file; when the screen shows an alert instead (the API
 * refused, e.g. 503 `pdf_renderer_unavailable`), fails at once with the alert's words.
 */
async function download(page: Page, button: Locator): Promise<Download> {
  const alert = page.getByRole("alert").filter({ hasText: /\S/ });
  const before = await alert.count();
  let waiting = true;
  const file = page.waitForEvent("download", { timeout: 90_000 }).finally(() => {
    waiting = false;
  });
  await button.click();
  const refused = (async () => {
    while (waiting) {
      if ((await alert.count().catch(() => before)) > before) {
        throw new Error(`no download; the screen says: ${await alert.last().textContent()}`);
      }
      await page.waitForTimeout(250).catch(() => undefined);
    }
    return file;
  })();
  return Promise.race([file, refused]);
}

/** A `datetime-local` value on the Jakarta clock, `minutes` from now. */
const wib = (minutes: number) =>
  new Date(Date.now() + minutes * 60_000 + 7 * 3_600_000).toISOString().slice(0, 16);

/** The secretary's letters, the guest desk and the polls (issue 46 items 4–6, engineer C). */
export const deskJourneys: Journey[] = [
  {
    name: "the secretary finishes a letter a resident asked for in the app and the resident then downloads it",
    run: async (app) => {
      // The resident asks for a letter in their own app.
      const resident = await app.page();
      await app.signIn(resident, RESIDENT);
      await resident.goto(`${app.url}/surat/baru`);
      await resident.getByRole("heading", { level: 1, name: "Ajukan surat" }).waitFor();
      await app.settled(resident);
      await resident.getByLabel("Jenis surat").selectOption({ label: "Surat Keterangan Domisili" });
      await resident.getByLabel("Keperluan").fill("Persyaratan membuka rekening bank");
      await resident.getByLabel("Berdomisili sejak").fill("2019-03-01");
      await resident.getByRole("button", { name: "Kirim permintaan" }).click();
      await resident.getByRole("heading", { level: 1, name: "Surat Keterangan Domisili" }).waitFor();
      const id = new URL(resident.url()).pathname.split("/").at(-1) ?? "";
      expect(id).not.toBe("baru");

      // The secretary finds it in the console's queue (diajukan) and opens it.
      const desk = await app.page(DESKTOP);
      await app.signIn(desk, SECRETARY);
      await desk.goto(`${app.url}/pengurus`);
      await desk
        .getByRole("navigation", { name: "Menu pengurus" })
        .getByRole("link", { name: "Surat" })
        .click();
      await desk.getByRole("heading", { level: 1, name: "Antrean surat" }).waitFor();
      const row = desk.locator(`a[href="/pengurus/surat/${id}"]`);
      await row.waitFor();
      await check(app, desk, "letters-queue");
      await row.click();
      await desk.getByRole("heading", { level: 1, name: "Surat Keterangan Domisili" }).waitFor();
      await desk.getByText("Persyaratan membuka rekening bank").waitFor();
      // Who the letter is for, as it will print them: from the registry, NIK and address included.
      await desk.getByRole("heading", { name: "Data diri yang dicetak" }).waitFor();
      await desk
        .getByText(/^\d{16}$/)
        .first()
        .waitFor();
      await desk
        .getByText(/^Blok .*Kecamatan/)
        .first()
        .waitFor();
      // The next number is suggested, and is what the API suggests.
      const secretary = await app.apiAs(SECRETARY);
      const next = await secretary("GET", "/api/surat/next-number?jenis=domisili");
      const suggested = ((await next.json()) as { nomorSurat: string }).nomorSurat;
      await desk.getByText(`Nomor berikutnya yang disarankan: ${suggested}`).waitFor();
      await expect(desk.getByLabel("Nomor surat").inputValue()).resolves.toBe(suggested);
      await check(app, desk, "letters-request");

      // Number and finish in one step.
      await desk.getByRole("button", { name: "Selesaikan surat" }).click();
      await desk.getByText(`Surat selesai dengan nomor ${suggested}.`).waitFor();
      // RT 01 waits for its RW: the desk says so, and the resident has nothing to download yet.
      await desk.getByText(/^Menunggu persetujuan RW/).waitFor();
      await resident.reload();
      await resident.getByText("Menunggu persetujuan RW").first().waitFor();
      expect(await resident.getByRole("button", { name: "Unduh PDF" }).count()).toBe(0);

      // The PDF, read with the secretary's session before the resident may have it.
      const preview = await download(desk, desk.getByRole("button", { name: "Unduh PDF" }));
      expect(preview.suggestedFilename()).toMatch(/\.pdf$/);
      await check(app, desk, "letters-finished");

      // The RW is slow: the RT issues it without the RW, with its reason.
      await desk.getByRole("button", { name: "Terbitkan tanpa RW" }).click();
      const dialog = desk.getByRole("dialog", { name: "Terbitkan surat tanpa menunggu RW?" });
      await dialog.getByLabel("Alasan menerbitkan tanpa RW").fill("Pemohon memerlukan surat hari ini");
      expect(await app.seriousViolations(desk), "issue without RW dialog: axe").toEqual([]);
      await dialog.getByRole("button", { name: "Terbitkan tanpa RW" }).click();
      await desk.getByText(/^Diterbitkan tanpa RW oleh .*Pemohon memerlukan surat hari ini/).waitFor();

      // The resident downloads it.
      await resident.reload();
      await resident.getByRole("button", { name: "Unduh PDF" }).waitFor();
      await resident.getByText(suggested).waitFor();
      const pdf = await download(resident, resident.getByRole("button", { name: "Unduh PDF" }));
      expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
      const file = await readFile((await pdf.path()) ?? "");
      expect(file.subarray(0, 4).toString("latin1")).toBe("%PDF");

      // The letterhead and signatory settings (read only here: other journeys print with them).
      await desk.goto(`${app.url}/pengurus/surat/pengaturan`);
      await desk.getByRole("heading", { level: 1, name: "Kop surat & penanda tangan" }).waitFor();
      await desk.getByLabel("Format nomor surat").waitFor();
      await check(app, desk, "letters-settings");
    },
  },
  {
    name: "the secretary approves a waiting guest, and the admin adds a gate device, copies its key shown once, and deactivates it",
    run: async (app) => {
      // A resident registers a guest for tomorrow: it waits for the committee.
      const resident = await app.apiAs(RESIDENT);
      const guest = `Pak Hendra ${Date.now() % 10_000}`;
      const created = await resident("POST", "/api/visitor", {
        guestName: guest,
        purpose: "Mengantar pesanan katering",
        visitAt: new Date(Date.now() + 24 * 3_600_000).toISOString(),
        vehiclePlate: "D 1234 XY",
        identity: "KTP 3273010101800001",
      });
      expect(created.status, await created.clone().text()).toBe(201);
      expect(((await created.json()) as { status: string }).status).toBe("menunggu");

      const desk = await app.page(DESKTOP);
      await app.signIn(desk, SECRETARY);
      await desk.goto(`${app.url}/pengurus/tamu`);
      await desk.getByRole("heading", { level: 1, name: "Tamu" }).waitFor();
      await desk.getByRole("cell", { name: guest, exact: true }).waitFor();
      // Gate devices are the admin's: the secretary is not offered them.
      expect(await desk.getByRole("link", { name: "Perangkat gerbang" }).count()).toBe(0);
      await check(app, desk, "guests-waiting");
      await desk.getByRole("button", { name: `Setujui: ${guest}` }).click();
      await desk.getByText(`Kunjungan ${guest} disetujui; tuan rumah menerima kartu tamunya.`).waitFor();
      // The list re-renders after the message: wait for the answered guest's button to go, not a count
      // read before the new list is drawn.
      await desk.getByRole("button", { name: `Setujui: ${guest}` }).waitFor({ state: "detached" });
      await desk.getByRole("link", { name: "Kunjungan hari ini" }).click();
      await app.settled(desk);
      await check(app, desk, "guests-today");
      await desk.getByRole("link", { name: "Semua kunjungan" }).click();
      await desk.getByRole("cell", { name: guest, exact: true }).first().waitFor();
      await check(app, desk, "guests-all");

      // The admin adds a device; its key is shown once, and copied.
      const admin = await app.page(DESKTOP);
      await admin.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
      await app.signIn(admin, ADMIN);
      await admin.goto(`${app.url}/pengurus/tamu`);
      await admin.getByRole("link", { name: "Perangkat gerbang" }).click();
      await admin.getByRole("heading", { level: 1, name: "Perangkat gerbang" }).waitFor();
      await app.settled(admin);
      const name = `Gerbang Utara ${Date.now() % 10_000}`;
      await admin.getByLabel("Nama perangkat").fill(name);
      await admin.getByLabel("Jenis perangkat").selectOption({ value: "generic" });
      await admin.getByRole("button", { name: "Tambahkan" }).click();
      await admin.getByText(`Kunci API untuk ${name}:`).waitFor();
      const key = (await admin.locator(".once code").textContent()) ?? "";
      expect(key.length).toBeGreaterThan(16);
      await admin.getByText("Hanya ditampilkan sekali. Simpan sekarang.").waitFor();
      await admin.getByRole("button", { name: "Salin" }).click();
      await admin.getByRole("button", { name: "Tersalin" }).waitFor();
      await expect(admin.evaluate(() => navigator.clipboard.readText())).resolves.toBe(key);
      await admin.getByRole("button", { name: `Nonaktifkan: ${name}` }).waitFor();
      await check(app, admin, "guests-devices");

      // Deactivated: the key stops opening the gate.
      await admin.getByRole("button", { name: `Nonaktifkan: ${name}` }).click();
      await admin.getByRole("button", { name: `Aktifkan: ${name}` }).waitFor();
      // At once where the deactivation ran; elsewhere within the device cache's 30 s (ADR 0015), which
      // the project's poll time covers.
      const webhook = async () =>
        (
          await fetch(`${app.url}/api/gate-hardware/webhook`, {
            method: "POST",
            headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
            body: JSON.stringify({ event: "heartbeat" }),
          })
        ).status;
      await expect.poll(webhook).toBeGreaterThanOrEqual(400);

      // Its events, then it is deleted after a confirmation.
      await admin.getByRole("link", { name: `Peristiwa: ${name}` }).click();
      await admin.getByRole("heading", { level: 1, name: "Peristiwa perangkat" }).waitFor();
      await check(app, admin, "guests-device-events");
      await admin.getByRole("link", { name: "← Kembali ke perangkat gerbang" }).click();
      await admin.getByRole("button", { name: `Hapus: ${name}` }).click();
      const confirm = admin.getByRole("dialog", { name: new RegExp(`^Hapus perangkat ${name}`) });
      await confirm.getByRole("button", { name: "Hapus" }).click();
      await expect
        .poll(() => admin.getByRole("button", { name: `Aktifkan: ${name}` }).count(), { timeout: 10_000 })
        .toBe(0);
    },
  },
  {
    name: "the secretary creates a poll, publishes it, and sees its live results",
    run: async (app) => {
      const desk = await app.page(DESKTOP);
      await app.signIn(desk, SECRETARY);
      await desk.goto(`${app.url}/pengurus/musyawarah`);
      await desk.getByRole("heading", { level: 1, name: "Musyawarah" }).waitFor();
      await check(app, desk, "polls-list");

      await desk.getByRole("link", { name: "Buat musyawarah" }).click();
      await desk.getByRole("heading", { level: 1, name: "Musyawarah baru" }).waitFor();
      const title = `Jadwal kerja bakti ${Date.now() % 10_000}`;
      await desk.getByLabel("Judul", { exact: true }).fill(title);
      await desk.getByLabel("Keterangan (boleh dikosongkan)").fill("Pilih hari kerja bakti bulan depan.");
      await desk.getByLabel("Pilihan 1", { exact: true }).fill("Sabtu pagi");
      await desk.getByLabel("Pilihan 2", { exact: true }).fill("Minggu pagi");
      await desk.getByRole("button", { name: "Tambah pilihan" }).click();
      await desk.getByLabel("Pilihan 3", { exact: true }).fill("Minggu sore");
      await desk.getByLabel("Mulai (WIB)").fill(wib(-5));
      await desk.getByLabel("Selesai (WIB)").fill(wib(3 * 24 * 60));
      await desk.getByLabel("Kuorum", { exact: true }).selectOption({ value: "count" });
      await desk.getByLabel("Nilai kuorum").fill("1");
      await check(app, desk, "polls-new");
      await desk.getByRole("button", { name: "Simpan draf" }).click();

      const heading = desk.getByRole("heading", { level: 1, name: title });
      await heading.or(desk.locator(".alert, .field-error")).first().waitFor();
      expect(await desk.locator(".alert, .field-error").allTextContents(), "the draft is saved").toEqual([]);
      await desk.getByText("Draf", { exact: true }).first().waitFor();
      await desk.getByRole("button", { name: "Terbitkan" }).click();
      const dialog = desk.getByRole("dialog", { name: /^Terbitkan musyawarah ini\?/ });
      await dialog.getByRole("button", { name: "Terbitkan" }).click();
      await desk.getByText("Musyawarah diterbitkan.").waitFor();
      await desk.getByText("Berlangsung", { exact: true }).first().waitFor();
      await desk.getByText("Kuorum belum tercapai", { exact: false }).waitFor();
      await check(app, desk, "polls-open");

      // A resident votes from their phone; the open screen shows it within a few seconds.
      const id = new URL(desk.url()).pathname.split("/").at(-1) ?? "";
      const resident = await app.apiAs(RESIDENT);
      const poll = (await (await resident("GET", `/api/musyawarah/${id}`)).json()) as {
        options: { id: string; label: string }[];
      };
      const sunday = poll.options.find((o) => o.label === "Minggu pagi")?.id ?? "";
      const vote = await resident("POST", `/api/musyawarah/${id}/vote`, { optionIds: [sunday] });
      expect(vote.status, await vote.clone().text()).toBeLessThan(300);
      await desk.getByText("1 suara (100%)").waitFor({ timeout: 20_000 });
      await desk.getByText(/Kuorum tercapai/).waitFor();
      await check(app, desk, "polls-live");

      await desk.getByRole("button", { name: "Tutup musyawarah" }).click();
      await desk
        .getByRole("dialog", { name: /^Tutup musyawarah ini\?/ })
        .getByRole("button", { name: "Tutup musyawarah" })
        .click();
      await desk.getByText("Musyawarah ditutup.").waitFor();
      await desk.getByText("Ditutup", { exact: true }).first().waitFor();
    },
  },
];
