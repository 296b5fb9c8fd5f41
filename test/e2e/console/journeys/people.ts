import { expect } from "vitest";
import type { Journey, WebApp } from "../../web/harness";

/**
 * The committee (issue 46 item 8) and the content section (item 7). Data changes only as admin.rt01 (a
 * new treasurer, made up for this run) and sekretaris.rt02 (RT 02's announcement and complaint), so the
 * other sections' journeys on the same server see what they expect.
 */
const ADMIN = "admin.rt01@warga.test";
const SECRETARY = "sekretaris.rt02@warga.test";
const DESK = { width: 1280, height: 800 };

/** A link as sent (on APP_URL) opened on this test's server: the same path and query. */
const here = (app: WebApp, link: string) => {
  const u = new URL(link);
  return `${app.url}${u.pathname}${u.search}`;
};

export const peopleJourneys: Journey[] = [
  {
    name: "the admin invites a treasurer, who follows the link and sees the finance section",
    run: async (app) => {
      const email = `bendahara.baru-${Date.now()}@warga.test`;
      const desk = await app.page(DESK);
      await app.signIn(desk, ADMIN);
      await desk.goto(`${app.url}/pengurus/tim`);
      await desk.getByRole("heading", { level: 1, name: "Anggota komunitas" }).waitFor();
      await app.settled(desk);
      // The seed's committee is listed with its duties.
      await desk.locator(".badge", { hasText: "Bendahara" }).first().waitFor();
      expect(await app.seriousViolations(desk), "tim members: axe serious/critical").toEqual([]);
      await app.screenshot(desk, "console-people-members-desktop");

      await desk
        .getByRole("navigation", { name: "Bagian tim pengurus" })
        .getByRole("link", { name: "Undang", exact: true })
        .click();
      await desk.getByRole("heading", { level: 1, name: "Undang anggota" }).waitFor();
      await desk.getByLabel("Nama lengkap").fill("Ratna Bendahara Baru");
      await desk.getByLabel("Email").fill(email);
      await desk.getByRole("checkbox", { name: "Bendahara" }).check();
      expect(await app.seriousViolations(desk), "tim invite: axe serious/critical").toEqual([]);
      await app.screenshot(desk, "console-people-invite-desktop");
      const since = app.outbox().length;
      await desk.getByRole("button", { name: "Kirim undangan" }).click();
      await desk
        .getByRole("status")
        .filter({ hasText: "Undangan untuk Ratna Bendahara Baru sudah dikirim lewat email." })
        .waitFor();
      expect(await app.seriousViolations(desk), "tim invited: axe serious/critical").toEqual([]);

      // The pending invitation is listed (contact masked), with its revoke and re-send.
      await desk.getByRole("link", { name: "Undangan tertunda" }).first().click();
      await desk.getByRole("heading", { level: 1, name: "Undangan tertunda" }).waitFor();
      await desk.getByRole("cell", { name: "Ratna Bendahara Baru" }).first().waitFor();
      await desk.getByRole("button", { name: "Cabut: Ratna Bendahara Baru" }).first().waitFor();
      expect(await app.seriousViolations(desk), "tim invitations: axe serious/critical").toEqual([]);
      await app.screenshot(desk, "console-people-invitations-desktop");

      // The invitee, on a phone, from the email.
      const link = await app.linkSentTo(email, "/reset-password", since);
      const phone = await app.page();
      await phone.goto(here(app, link));
      await phone.getByRole("heading", { level: 1, name: "Bergabung dengan komunitas" }).waitFor();
      await app.settled(phone);
      await phone.getByLabel("Kata sandi baru (minimal 8 karakter)").fill("sandi-bendahara-baru-1");
      await phone.getByRole("button", { name: "Bergabung" }).click();
      await phone.getByRole("heading", { level: 1, name: /^Halo, Ratna/ }).waitFor();
      await phone
        .getByRole("navigation", { name: "Menu utama" })
        .getByRole("link", { name: "Pengurus" })
        .click();
      const menu = phone.getByRole("navigation", { name: "Menu pengurus" });
      await menu.getByRole("link", { name: "Keuangan", exact: true }).click();
      await phone.waitForURL(/\/pengurus\/keuangan/);
      await phone.getByRole("heading", { level: 1 }).first().waitFor();
      expect(await menu.getByRole("link", { name: "Tim pengurus" }).count()).toBe(0);

      // Back at the desk: the new treasurer is a member now, with the duty; their page opens.
      await desk.goto(`${app.url}/pengurus/tim`);
      await desk.getByRole("link", { name: "Ratna Bendahara Baru" }).click();
      await desk.getByRole("heading", { level: 1, name: "Anggota: Ratna Bendahara Baru" }).waitFor();
      await app.settled(desk);
      expect(await desk.getByRole("checkbox", { name: "Bendahara" }).isChecked()).toBe(true);
      expect(await app.seriousViolations(desk), "tim member: axe serious/critical").toEqual([]);
      await app.screenshot(desk, "console-people-member-desktop");

      // The same screens on a phone.
      const small = await app.page();
      await app.signIn(small, ADMIN);
      await small.goto(`${app.url}/pengurus/tim`);
      await small.getByRole("heading", { level: 1, name: "Anggota komunitas" }).waitFor();
      await app.settled(small);
      expect(await app.seriousViolations(small), "tim members 360: axe serious/critical").toEqual([]);
      await app.screenshot(small, "console-people-members-360");
      await small.goto(`${app.url}/pengurus/tim/undangan`);
      await small.getByRole("heading", { level: 1, name: "Undangan tertunda" }).waitFor();
      await app.settled(small);
      await app.screenshot(small, "console-people-invitations-360");
      await small.goto(`${app.url}/pengurus/tim/audit`);
      await small.getByRole("heading", { level: 1, name: "Jejak audit" }).waitFor();
      await app.settled(small);
      await small.getByText("member.invite").first().waitFor();
      expect(await app.seriousViolations(small), "tim audit 360: axe serious/critical").toEqual([]);
      await app.screenshot(small, "console-people-audit-360");
      await small.goto(`${app.url}/pengurus/tim/pendaftaran`);
      await small.getByRole("heading", { level: 1, name: "Pendaftaran warga" }).waitFor();
      await app.settled(small);
      expect(await app.seriousViolations(small), "tim applications 360: axe serious/critical").toEqual([]);
      await app.screenshot(small, "console-people-applications-360");
    },
  },
  {
    name: "the secretary publishes an announcement with a preview and replies to a complaint",
    run: async (app) => {
      const desk = await app.page(DESK);
      await app.signIn(desk, SECRETARY);
      await desk.goto(`${app.url}/pengurus`);
      await desk
        .getByRole("navigation", { name: "Menu pengurus" })
        .getByRole("link", { name: "Konten & aspirasi" })
        .click();
      await desk.getByRole("heading", { level: 1, name: "Pengumuman" }).waitFor();
      await app.settled(desk);
      expect(await app.seriousViolations(desk), "konten list: axe serious/critical").toEqual([]);
      await app.screenshot(desk, "console-people-announcements-desktop");

      await desk.getByRole("link", { name: "Buat pengumuman" }).click();
      await desk.getByRole("heading", { level: 1, name: "Buat pengumuman" }).waitFor();
      const title = `Kerja bakti Minggu ${Date.now() % 100000}`;
      await desk.getByLabel("Judul").fill(title);
      await desk
        .getByLabel("Isi (Markdown)")
        .fill("Kumpul **pukul 07.00** di pos ronda.\n\nBawa [sapu](https://contoh.test/sapu) dan karung.");
      await desk.getByRole("checkbox", { name: "WhatsApp" }).check();
      await desk.getByRole("checkbox", { name: "Email" }).check();
      // The preview shows what residents get, as the API composes it.
      const preview = desk.getByRole("region", { name: "Pratinjau yang diterima warga" });
      await preview.getByText(title, { exact: true }).first().waitFor();
      await preview.getByText("Kumpul pukul 07.00 di pos ronda. Bawa sapu dan karung.").first().waitFor();
      expect(await preview.textContent()).toContain(`*${title}*`);
      expect(await preview.textContent()).toContain("RT 02");
      expect(await app.seriousViolations(desk), "konten editor: axe serious/critical").toEqual([]);
      await app.screenshot(desk, "console-people-announcement-preview-desktop");
      const previewWhatsapp = await preview.locator("pre.konten-wa").textContent();
      const since = app.outbox().length;
      await desk.getByRole("button", { name: "Terbitkan" }).click();
      await desk.getByRole("heading", { level: 1, name: "Ubah pengumuman" }).waitFor();
      await desk.getByRole("status").filter({ hasText: "Pengumuman terbit dan sedang dikirim." }).waitFor();
      // What went out to the notification service is what the preview showed (this server's stand-in
      // keeps it; it keeps no delivery log, so the delivery table is not checked here).
      type Fanout = {
        channel: string;
        push?: { title: string; body: string };
        whatsapp?: { message: string };
        email?: { subject: string };
      };
      const fanouts = () =>
        app
          .outbox()
          .slice(since)
          .filter((m) => m.path === "/v1/fanout" && JSON.stringify(m.body).includes(title))
          .map((m) => m.body as Fanout);
      // The API may hand the fan-out over just after it answers: wait for the next message to arrive, not
      // for the clock (the journey's own time limit bounds the whole), as `linkSentTo` does.
      for (;;) {
        const arrival = app.server.nextArrival();
        if (fanouts().length >= 3) {
          break;
        }
        await arrival;
      }
      const on = (channel: string) => fanouts().find((f) => f.channel === channel);
      expect(on("push")?.push).toEqual({
        title,
        body: "Kumpul pukul 07.00 di pos ronda. Bawa sapu dan karung.",
        data: expect.anything(),
      });
      expect(on("whatsapp")?.whatsapp?.message).toBe(previewWhatsapp);
      expect(on("email")?.email?.subject).toBe(`[RT 02 / RW 05 Sukamaju] ${title}`);
      await app.settled(desk);
      expect(await app.seriousViolations(desk), "konten published: axe serious/critical").toEqual([]);
      await app.screenshot(desk, "console-people-announcement-published-desktop");

      // Residents of RT 02 see it in their app.
      const resident = await app.apiAs("warga1.rt02@warga.test");
      const seen = (await (await resident("GET", "/api/pengumuman")).json()) as {
        items: { title: string }[];
      };
      expect(seen.items.map((i) => i.title)).toContain(title);

      // The complaint that came in: reply and take it on, on a phone.
      const phone = await app.page();
      await app.signIn(phone, SECRETARY);
      await phone.goto(`${app.url}/pengurus/konten/pengaduan`);
      await phone.getByRole("heading", { level: 1, name: "Pengaduan warga" }).waitFor();
      await app.settled(phone);
      expect(await app.seriousViolations(phone), "pengaduan list: axe serious/critical").toEqual([]);
      await app.screenshot(phone, "console-people-complaints-360");
      await phone.getByRole("link", { name: "Lampu jalan Blok B mati" }).click();
      await phone.getByRole("heading", { level: 1, name: "Lampu jalan Blok B mati" }).waitFor();
      await app.settled(phone);
      await phone.getByLabel("Ubah status menjadi").selectOption("diproses");
      const reply = "Terima kasih, lampu akan diganti petugas PLN hari Kamis.";
      await phone.getByLabel("Tanggapan untuk warga").fill(reply);
      expect(await app.seriousViolations(phone), "pengaduan detail: axe serious/critical").toEqual([]);
      await phone.getByRole("button", { name: "Kirim tanggapan" }).click();
      await phone.getByRole("status").filter({ hasText: "Tanggapan terkirim." }).waitFor();
      await phone.getByRole("list", { name: "Riwayat tanggapan" }).getByText(reply).waitFor();
      await app.screenshot(phone, "console-people-complaint-360");

      // The resident who sent it sees the reply on their complaint.
      const sender = await app.apiAs("warga1.rt02@warga.test");
      const mine = (await (await sender("GET", "/api/pengaduan/mine")).json()) as {
        items: { title: string; status: string }[];
      };
      expect(mine.items.find((c) => c.title === "Lampu jalan Blok B mati")?.status).toBe("diproses");

      // The other pages of the section open on a phone, each with its own states.
      for (const [path, heading, shot] of [
        ["/pengurus/konten", "Pengumuman", "announcements"],
        ["/pengurus/konten/berita", "Berita", "news"],
        ["/pengurus/konten/agenda", "Agenda kegiatan", "events"],
        ["/pengurus/konten/saran", "Saran warga", "suggestions"],
        ["/pengurus/konten/usulan", "Usulan warga", "proposals"],
        ["/pengurus/konten/pasar", "Moderasi pasar warga", "market"],
      ] as const) {
        await phone.goto(`${app.url}${path}`);
        await phone.getByRole("heading", { level: 1, name: heading, exact: true }).waitFor();
        await app.settled(phone);
        expect(await app.seriousViolations(phone), `${path}: axe serious/critical`).toEqual([]);
        await app.screenshot(phone, `console-people-${shot}-360`);
      }
      // An event on the agenda, in Jakarta time, as residents will read it.
      await phone.goto(`${app.url}/pengurus/konten/agenda/baru`);
      await phone.getByRole("heading", { level: 1, name: "Tambah kegiatan" }).waitFor();
      await phone.getByLabel("Judul").fill("Posyandu balita");
      await phone.getByLabel("Tempat").fill("Balai RT 02");
      await phone.getByLabel("Mulai (WIB)").fill("2030-03-10T08:00");
      await phone.getByLabel("Selesai (WIB)").fill("2030-03-10T11:00");
      expect(await app.seriousViolations(phone), "agenda new: axe serious/critical").toEqual([]);
      await app.screenshot(phone, "console-people-event-new-360");
      await phone.getByRole("button", { name: "Simpan" }).click();
      await phone.getByRole("heading", { level: 1, name: "Ubah kegiatan" }).waitFor();
      expect(await phone.getByLabel("Mulai (WIB)").inputValue()).toBe("2030-03-10T08:00");
      const events = (await (await resident("GET", "/api/agenda?from=2030-03-10&to=2030-03-10")).json()) as {
        items: { title: string; start: string }[];
      };
      const posyandu = events.items.find((e) => e.title === "Posyandu balita");
      expect(Date.parse(posyandu?.start ?? "")).toBe(Date.parse("2030-03-10T08:00:00+07:00"));

      await phone.goto(`${app.url}/pengurus/konten/pengumuman/baru`);
      await phone.getByRole("heading", { level: 1, name: "Buat pengumuman" }).waitFor();
      await app.settled(phone);
      await app.screenshot(phone, "console-people-announcement-new-360");
    },
  },
];
