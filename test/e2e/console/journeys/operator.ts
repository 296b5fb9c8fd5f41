import { expect } from "vitest";
import { setSupportTicketCreatedAt } from "../../server";
import type { Journey, WebApp } from "../../web/harness";
import { overflowing } from "../overflow";

// The platform's operator (issue 47); the community admin on the other side of a ticket.
const OPERATOR = "operator@warga.test";
const ADMIN = "admin.rt01@warga.test";
const ADMIN_SLUG = "rt-01-sukamaju";
const DESK = { width: 1280, height: 800 };

/** A 1 × 1 PNG (the API recognises images by their bytes). */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** The API as `email` with multipart uploads too (apiAs speaks JSON only). */
async function bearer(app: WebApp, email: string): Promise<string> {
  const res = await fetch(`${app.url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "warga-demo-2026" }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

interface Created {
  id: string;
  number: number;
  title: string;
}

/** A community admin opens a ticket (with a photo when asked), as their console does, through the API. */
async function openTicket(app: WebApp, title: string, withPhoto: boolean): Promise<Created> {
  const token = await bearer(app, ADMIN);
  let attachment: string | undefined;
  if (withPhoto) {
    const form = new FormData();
    form.append("file", new Blob([PNG], { type: "image/png" }), "layar.png");
    const up = await fetch(`${app.url}/api/uploads/resident-image?kind=support-ticket`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": crypto.randomUUID() },
      body: form,
    });
    expect(up.status, await up.clone().text()).toBe(201);
    attachment = ((await up.json()) as { url: string }).url;
  }
  const res = await fetch(`${app.url}/api/support-tickets`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      "Idempotency-Key": crypto.randomUUID(),
    },
    body: JSON.stringify({
      category: "teknis",
      title,
      detail: "Tombol unduh laporan bulanan tidak merespons di ponsel pengurus.",
      ...(attachment ? { attachment_url: attachment } : {}),
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Created;
}

/** A link as sent (on APP_URL) opened on this test's server: the same path and query. */
const here = (app: WebApp, link: string) => {
  const u = new URL(link);
  return `${app.url}${u.pathname}${u.search}`;
};

/** The invited admin sets a password on the invitation's page and lands signed in at home. */
async function acceptInvitation(app: WebApp, link: string, name: string) {
  const page = await app.page();
  await page.goto(here(app, link));
  await page.getByRole("heading", { level: 1, name: "Bergabung dengan komunitas" }).waitFor();
  await app.settled(page);
  await page.getByLabel("Kata sandi baru (minimal 8 karakter)").fill("sandi-admin-baru-1");
  await page.getByRole("button", { name: "Bergabung" }).click();
  await page.getByRole("heading", { level: 1, name: new RegExp(`^Halo, ${name}`) }).waitFor();
  return page;
}

export const operatorJourneys: Journey[] = [
  {
    name: "the operator answers a community's ticket with an image and changes its status, and the admin sees the answer",
    run: async (app) => {
      const title = `Unduhan laporan macet ${Date.now() % 100_000}`;
      const ticket = await openTicket(app, title, true);

      // The operator, on a desktop: the bottom bar's "Operator" opens the console's inbox.
      const page = await app.page(DESK);
      await app.signIn(page, OPERATOR);
      await page
        .getByRole("navigation", { name: "Menu utama" })
        .getByRole("link", { name: "Operator" })
        .click();
      await page.getByRole("heading", { level: 1, name: "Tiket dukungan" }).waitFor();
      await page.getByLabel("Slug komunitas").fill(ADMIN_SLUG);
      await page.getByLabel("Status").selectOption({ label: "Baru" });
      await app.settled(page);
      const row = page.getByRole("row").filter({ hasText: title });
      await row.waitFor();
      await expect.poll(() => row.textContent()).toContain(`Tenant ${ADMIN_SLUG}`);
      await page.getByRole("list", { name: "Jumlah tiket menurut saringan" }).waitFor();
      expect(await app.seriousViolations(page), "inbox: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-operator-inbox-desktop");

      // The ticket, as the operators' notification email links to it.
      await row.getByRole("link", { name: title }).click();
      await page.getByRole("heading", { level: 1, name: `#${ticket.number} ${title}` }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/platform/support-tickets/${ticket.id}`);
      // The admin's photo comes through the API with the operator's token.
      await page.locator(".auth-image img").first().waitFor();
      await page
        .getByLabel("Tanggapan")
        .fill("Sudah kami perbaiki; silakan coba lagi. Tangkapan layar terlampir.");
      await page
        .getByLabel("Pilih dari galeri")
        .setInputFiles({ name: "jawaban.png", mimeType: "image/png", buffer: PNG });
      await page.getByLabel("Ubah status").selectOption({ label: "Diproses" });
      expect(await app.seriousViolations(page), "ticket: axe serious/critical").toEqual([]);
      await page.getByRole("button", { name: "Kirim" }).click();
      await page.getByText("Tanggapan tersimpan dan dikirim ke pengirim.").waitFor();
      await page.getByText("Status diubah menjadi Diproses").waitFor();
      await expect.poll(() => page.locator(".operator-thread .auth-image img").count()).toBe(1);
      await app.screenshot(page, "console-operator-ticket-desktop");

      // The same ticket on a phone.
      const phone = await app.page();
      await app.signIn(phone, OPERATOR);
      await phone.goto(`${app.url}/platform/support-tickets/${ticket.id}`);
      await phone.getByRole("heading", { level: 1, name: `#${ticket.number} ${title}` }).waitFor();
      await app.settled(phone);
      expect(await app.seriousViolations(phone), "ticket 360: axe serious/critical").toEqual([]);
      expect(await overflowing(phone), "ticket 360: nothing past the right edge").toEqual([]);
      await app.screenshot(phone, "console-operator-ticket-360");
      await phone.goto(`${app.url}/platform/support-tickets?tenant=${ADMIN_SLUG}`);
      await phone.getByRole("link", { name: title }).waitFor();
      expect(await overflowing(phone), "inbox 360: nothing past the right edge").toEqual([]);
      await app.screenshot(phone, "console-operator-inbox-360");

      // The admin sees the answer, its image and the new status.
      const admin = await app.apiAs(ADMIN);
      const seen = (await (await admin("GET", `/api/support-tickets/${ticket.id}`)).json()) as {
        status: string;
        messages: { author: string; message: string; lampiran_url: string | null }[];
      };
      expect(seen.status).toBe("diproses");
      const answer = seen.messages.find((m) => m.author === "operator");
      expect(answer?.message).toContain("Sudah kami perbaiki");
      expect(answer?.lampiran_url).toBeTruthy();
    },
  },
  {
    name: "the operator's inbox: the date filter counts a ticket made at 23:30 Jakarta time on the right day",
    run: async (app) => {
      // Two tickets of the journey's own, back-dated through the harness's seam (no route sets when a
      // ticket was made): one at 23:30 WIB on DAY (16:30 UTC), one at 00:30 WIB on the NEXT day, which is
      // 17:30 UTC on DAY, so a filter counting UTC days would put both on DAY. The days are in the past,
      // where no other journey's ticket is made.
      const n = Date.now() % 100_000;
      const late = await openTicket(app, `Tiket 23.30 ${n}`, false);
      const early = await openTicket(app, `Tiket 00.30 ${n}`, false);
      const DAY = "2026-03-14";
      const NEXT = "2026-03-15";
      await setSupportTicketCreatedAt(app.server, late.id, `${DAY}T16:30:00.000Z`);
      await setSupportTicketCreatedAt(app.server, early.id, `${DAY}T17:30:00.000Z`);
      const operator = await app.apiAs(OPERATOR);
      // One of them is being handled, so the counts by status tell the two apart.
      const handled = await operator("PATCH", `/api/platform/support-tickets/${late.id}`, {
        status: "diproses",
      });
      expect(handled.status, await handled.clone().text()).toBe(200);

      const page = await app.page(DESK);
      await app.signIn(page, OPERATOR);
      await page.goto(`${app.url}/platform/support-tickets`);
      await page.getByRole("heading", { level: 1, name: "Tiket dukungan" }).waitFor();
      const kpis = page.getByRole("list", { name: "Jumlah tiket menurut saringan" });
      /** The screen's four counts as the API gives them under the same filters (both ends inclusive). */
      const countsAgree = async (from: string, to: string) => {
        const res = await operator("GET", `/api/platform/support-tickets?from=${from}&to=${to}&limit=1`);
        const { summary } = (await res.json()) as {
          summary: { total: number; baru: number; diproses: number; selesai: number };
        };
        const expected = [
          `${summary.total} Total`,
          `${summary.baru} Baru`,
          `${summary.diproses} Diproses`,
          `${summary.selesai} Selesai`,
        ];
        await expect.poll(() => kpis.getByRole("listitem").allTextContents()).toEqual(expected);
        return summary;
      };

      // DAY, from DAY to DAY: the 23:30 ticket, made that evening, and not the one made after midnight.
      await page.getByLabel("Dibuat sejak").fill(DAY);
      await page.getByLabel("Dibuat sampai").fill(DAY);
      const lateRow = page.getByRole("row").filter({ hasText: late.title });
      await lateRow.waitFor();
      // Its time as the screen shows it: 23.30 on 14 March, Jakarta time.
      await expect.poll(() => lateRow.textContent()).toMatch(/14 Mar.*23\.30/);
      await app.settled(page);
      await expect.poll(() => page.getByRole("link", { name: early.title }).count()).toBe(0);
      const onDay = await countsAgree(DAY, DAY);
      expect(onDay.diproses).toBeGreaterThanOrEqual(1);
      expect(new URL(page.url()).search).toBe(`?from=${DAY}&to=${DAY}`);
      expect(await app.seriousViolations(page), "inbox by day: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-operator-inbox-day-desktop");

      // NEXT, from NEXT to NEXT: the one made at 00:30, never the 23:30 one.
      await page.getByLabel("Dibuat sejak").fill(NEXT);
      await page.getByLabel("Dibuat sampai").fill(NEXT);
      await page.getByRole("link", { name: early.title }).waitFor();
      await app.settled(page);
      await expect.poll(() => page.getByRole("link", { name: late.title }).count()).toBe(0);
      const onNext = await countsAgree(NEXT, NEXT);

      // Both days, DAY to NEXT: both tickets, each end inclusive, counted once each.
      await page.getByLabel("Dibuat sejak").fill(DAY);
      await page.getByRole("link", { name: late.title }).waitFor();
      await page.getByRole("link", { name: early.title }).waitFor();
      const both = await countsAgree(DAY, NEXT);
      expect(both.total).toBe(onDay.total + onNext.total);
    },
  },
  {
    name: "the operator creates a community with its first admin, who follows the invitation into their new community's console",
    run: async (app) => {
      const n = Date.now() % 100_000;
      const slug = `rt-09-uji-${n}`;
      const name = `RT 09 Uji ${n}`;
      const email = `ketua-${n}@contoh.test`;
      const page = await app.page(DESK);
      await app.signIn(page, OPERATOR);
      await page.goto(`${app.url}/platform/communities`);
      await page.getByRole("heading", { level: 1, name: "Komunitas" }).waitFor();
      await page.getByText(/^Slot basis data: \d+ kosong dari \d+/).waitFor();
      await page.getByRole("link", { name: "RT 01 / RW 05 Sukamaju" }).waitFor();
      await app.settled(page);
      expect(await app.seriousViolations(page), "communities: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-operator-communities-desktop");

      await page.getByRole("link", { name: "Buat komunitas" }).click();
      await page.getByRole("heading", { level: 1, name: "Buat komunitas" }).waitFor();
      await page.getByLabel("Nama komunitas").fill(name);
      await page.getByLabel("Slug (huruf kecil, angka dan tanda hubung)").fill(slug);
      await page
        .getByLabel("RW induk (untuk RT, boleh dikosongkan)")
        .selectOption({ value: "rw-05-sukamaju" });
      await page.getByLabel("Pasar warga").uncheck();
      await page.getByLabel("Nama admin").fill("Ibu Ratna Uji");
      await page.getByLabel("Email (boleh dikosongkan bila ada WhatsApp)").fill(email);
      await app.settled(page);
      expect(await app.seriousViolations(page), "create: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-operator-create-desktop");
      const since = app.outbox().length;
      await page.getByRole("button", { name: "Buat komunitas" }).click();
      await page.getByRole("heading", { level: 1, name: `Komunitas ${name} dibuat.` }).waitFor();
      await page.getByText("Undangan terkirim lewat email.").waitFor();

      // Its page: the parent RW and the features as chosen.
      await page.getByRole("link", { name: "Buka komunitas" }).click();
      await page.getByRole("heading", { level: 1, name }).waitFor();
      await page.getByText("RW 05 Sukamaju (rw-05-sukamaju)").first().waitFor();
      expect(await page.getByLabel("Pasar warga").isChecked()).toBe(false);
      expect(await page.getByLabel("Surat").isChecked()).toBe(true);
      expect(await app.seriousViolations(page), "community: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-operator-community-desktop");

      // The admin follows the email's link, sets a password, and the console of the new community opens.
      const link = await app.linkSentTo(email, "/reset-password", since);
      const admin = await acceptInvitation(app, link, "Ibu Ratna Uji");
      await admin.getByText(name).first().waitFor();
      await admin
        .getByRole("navigation", { name: "Menu utama" })
        .getByRole("link", { name: "Pengurus" })
        .click();
      const sections = admin.getByRole("navigation", { name: "Menu pengurus" });
      await sections.getByRole("link", { name: "Tim pengurus" }).waitFor();

      // The list searches on the server: typing pauses, the address holds the search, Back keeps it.
      await page.goto(`${app.url}/platform/communities`);
      await page.getByRole("link", { name: "RT 01 / RW 05 Sukamaju" }).waitFor();
      await page.getByLabel("Cari nama atau slug").fill(`UJI ${n}`);
      await page.waitForURL((u) => u.searchParams.get("q") === `UJI ${n}`);
      await page.getByRole("link", { name }).waitFor();
      await expect.poll(() => page.getByRole("link", { name: "RT 01 / RW 05 Sukamaju" }).count()).toBe(0);
      await page.getByRole("link", { name }).click();
      await page.getByRole("heading", { level: 1, name }).waitFor();
      // The admin has signed in now: counted, and no invited admin is left waiting.
      const facts = page.locator("dl.facts");
      await expect.poll(() => facts.textContent()).toContain("Admin diundang, belum pernah masuk0");
      await page.goBack();
      await page.getByRole("link", { name }).waitFor();
      expect(await page.getByLabel("Cari nama atau slug").inputValue()).toBe(`UJI ${n}`);
      await page.getByLabel("Cari nama atau slug").fill("tidak-ada-komunitas-begini");
      await page.getByText("Tidak ada komunitas yang cocok dengan pencarian atau saringan ini.").waitFor();

      // The parent RW's page names its RTs, the new one among them.
      await page.goto(`${app.url}/platform/communities?q=rw-05-sukamaju`);
      await page.getByRole("link", { name: "RW 05 Sukamaju", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "RW 05 Sukamaju" }).waitFor();
      await page.getByRole("link", { name }).waitFor();

      // On a phone the list is one card per community.
      const phone = await app.page();
      await app.signIn(phone, OPERATOR);
      await phone.goto(`${app.url}/platform/communities`);
      await phone.getByRole("link", { name }).waitFor();
      await app.settled(phone);
      expect(await app.seriousViolations(phone), "communities 360: axe serious/critical").toEqual([]);
      expect(await overflowing(phone), "communities 360: nothing past the right edge").toEqual([]);
      await app.screenshot(phone, "console-operator-communities-360");
    },
  },
  {
    name: "the operator closes a community after typing its slug, and its admin's session ends",
    run: async (app) => {
      const n = Date.now() % 100_000;
      const slug = `rt-08-tutup-${n}`;
      const name = `RT 08 Tutup ${n}`;
      const email = `tutup-${n}@contoh.test`;
      const operator = await app.apiAs(OPERATOR);
      const since = app.outbox().length;
      const made = await operator("POST", "/api/platform/tenants", {
        slug,
        name,
        type: "RT",
        admin: { name: "Pak Darto Uji", email },
      });
      expect(made.status, await made.clone().text()).toBe(201);
      const { id } = (await made.json()) as { id: string };
      const admin = await acceptInvitation(
        app,
        await app.linkSentTo(email, "/reset-password", since),
        "Pak Darto Uji",
      );

      const page = await app.page();
      await app.signIn(page, OPERATOR);
      await page.goto(`${app.url}/platform/communities/${id}`);
      await page.getByRole("heading", { level: 1, name }).waitFor();
      // On a phone its facts leave the values a readable column (they were one letter wide).
      const slugValue = await page.locator("dl.facts dd").first().boundingBox();
      expect(slugValue?.width ?? 0, "community page 360: the slug's column").toBeGreaterThan(120);
      await page.getByRole("button", { name: "Tutup komunitas" }).click();
      const dialog = page.getByRole("dialog", { name: `Tutup komunitas ${name}?` });
      await dialog.getByText(/Arsip akhir dibuat lebih dulu/).waitFor();
      // A wrong slug closes nothing.
      await dialog.getByLabel(`Ketik slug komunitas (${slug}) untuk memastikan`).fill("salah-ketik");
      await dialog.getByRole("button", { name: "Ya, tutup komunitas" }).click();
      await dialog.getByText("Slug yang diketik tidak sama.").waitFor();
      expect(await app.seriousViolations(page), "close dialog: axe serious/critical").toEqual([]);
      expect(await overflowing(page), "community page 360: nothing past the right edge").toEqual([]);
      await app.screenshot(page, "console-operator-close-360");
      await dialog.getByLabel(`Ketik slug komunitas (${slug}) untuk memastikan`).fill(slug);
      await dialog.getByRole("button", { name: "Ya, tutup komunitas" }).click();
      await page.getByText(/^Komunitas ditutup\. Arsip akhir /).waitFor();
      await page.getByText("Ditutup", { exact: true }).waitFor();

      // The admin's session is over: the next load of the app asks them to sign in.
      await admin.reload();
      await admin.waitForURL(/\/login/);
    },
  },
  {
    name: "the operator issues a community's invoice and voids it with a reason, beside the plans",
    run: async (app) => {
      // A community of this journey's own, so no seeded community's invoices change under other journeys.
      const n = Date.now() % 100_000;
      const name = `RT 07 Tagihan ${n}`;
      const operator = await app.apiAs(OPERATOR);
      const made = await operator("POST", "/api/platform/tenants", {
        slug: `rt-07-tagihan-${n}`,
        name,
        type: "RT",
        admin: { name: "Pak Tagih Uji", email: `tagih-${n}@contoh.test` },
      });
      expect(made.status, await made.clone().text()).toBe(201);

      const page = await app.page(DESK);
      await app.signIn(page, OPERATOR);
      await page.goto(`${app.url}/platform/billing`);
      await page.getByRole("heading", { level: 1, name: "Tagihan langganan" }).waitFor();
      await page.getByRole("table", { name: "Daftar paket" }).waitFor();
      await page.getByLabel("Komunitas").selectOption({ label: `${name} (rt-07-tagihan-${n})` });
      await page.getByText("Komunitas ini belum punya tagihan.").waitFor();
      await page.getByLabel("Bulan", { exact: true }).fill("3");
      await page.getByLabel("Catatan (boleh dikosongkan)").fill("Potongan perkenalan tiga bulan.");
      await page.getByLabel("Jumlah (Rp, kosongkan untuk harga paket × bulan)").fill("100000");
      await page.getByRole("button", { name: "Terbitkan tagihan" }).click();
      await page.getByText(/^Tagihan .+ terbit\.$/).waitFor();
      const row = page.getByRole("row").filter({ hasText: "Rp100.000" });
      await row.getByText("Terbit").waitFor();
      await app.settled(page);
      expect(await app.seriousViolations(page), "billing: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-operator-billing-desktop");

      await row.getByRole("button", { name: "Batalkan" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Alasan (dilihat admin komunitas)").fill("Diganti tagihan tahunan.");
      await dialog.getByRole("button", { name: "Ya, batalkan tagihan" }).click();
      await page.getByText("Dibatalkan: Diganti tagihan tahunan.").waitFor();

      const phone = await app.page();
      await app.signIn(phone, OPERATOR);
      await phone.goto(page.url());
      await phone.getByText("Dibatalkan: Diganti tagihan tahunan.").waitFor();
      await app.settled(phone);
      expect(await app.seriousViolations(phone), "billing 360: axe serious/critical").toEqual([]);
      expect(await overflowing(phone), "billing 360: nothing past the right edge").toEqual([]);
      await app.screenshot(phone, "console-operator-billing-360");
    },
  },
  {
    name: "the operator reads the platform's health: slots, notifications and communities without an admin",
    run: async (app) => {
      const page = await app.page(DESK);
      await app.signIn(page, OPERATOR);
      await page.goto(`${app.url}/platform`);
      await page.getByRole("heading", { level: 1, name: "Tiket dukungan" }).waitFor();
      await page
        .getByRole("navigation", { name: "Menu operator" })
        .getByRole("link", { name: "Kesehatan & operasi" })
        .click();
      await page.getByRole("heading", { level: 1, name: "Kesehatan platform" }).waitFor();
      await app.settled(page);
      await page
        .getByRole("table", { name: "Slot basis data komunitas" })
        // The holder's status in words, as the communities section says it (never the stored "active").
        .getByText("rt-01-sukamaju (Aktif)")
        .waitFor();
      await page.getByRole("heading", { name: "Layanan notifikasi" }).waitFor();
      await page.getByRole("heading", { name: "Komunitas tanpa admin" }).waitFor();
      expect(await app.seriousViolations(page), "health: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-operator-health-desktop");
      const phone = await app.page();
      await app.signIn(phone, OPERATOR);
      await phone.goto(`${app.url}/platform/health`);
      await phone.getByRole("heading", { level: 1, name: "Kesehatan platform" }).waitFor();
      await app.settled(phone);
      expect(await app.seriousViolations(phone), "health 360: axe serious/critical").toEqual([]);
      expect(await overflowing(phone), "health 360: nothing past the right edge").toEqual([]);
      await app.screenshot(phone, "console-operator-health-360");
    },
  },
  {
    name: "a person without the operator's role is told the operator's console is not for them",
    run: async (app) => {
      const page = await app.page();
      await app.signIn(page, ADMIN);
      expect(
        await page
          .getByRole("navigation", { name: "Menu utama" })
          .getByRole("link", { name: "Operator" })
          .count(),
      ).toBe(0);
      await page.goto(`${app.url}/platform/support-tickets`);
      await page.getByText("Halaman ini hanya untuk operator platform.").waitFor();
      expect(await app.seriousViolations(page), "not for you: axe serious/critical").toEqual([]);
    },
  },
];
