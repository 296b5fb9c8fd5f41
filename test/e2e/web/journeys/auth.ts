import { expect } from "vitest";
import { DEMO_PASSWORD, type Journey, type WebApp } from "../harness";

/**
 * The sign-in screens the system's emails open (issue 43, part F): each journey takes its link from
 * what the API sent (the notification stand-in's outbox), as the person would from their inbox. Data
 * changes only as admin.rt01 (the invitation), warga1.rt02 (magic link, reset) and made-up people.
 */
const INVITER = "admin.rt01@warga.test";
const RESIDENT = "warga1.rt02@warga.test";

/** A link as sent (on APP_URL) opened on this test's server: the same path and query. */
const here = (app: WebApp, link: string) => {
  const u = new URL(link);
  return `${app.url}${u.pathname}${u.search}`;
};

export const authJourneys: Journey[] = [
  {
    name: "a new person follows the invitation email's link, sees the community and duties, sets a password and lands signed in",
    run: async (app) => {
      const email = `undangan-${Date.now()}@contoh.test`;
      const admin = await app.apiAs(INVITER);
      const since = app.outbox().length;
      const invited = await admin("POST", "/api/members/invitations", {
        name: "Satria Penjaga",
        email,
        roles: ["satpam"],
      });
      expect(invited.status, await invited.clone().text()).toBe(202);
      const link = await app.linkSentTo(email, "/reset-password", since);

      const page = await app.page();
      await page.goto(here(app, link));
      await page.getByRole("heading", { level: 1, name: "Bergabung dengan komunitas" }).waitFor();
      await app.settled(page);
      // The token left the address bar at once.
      expect(page.url()).not.toContain("token=");
      const main = page.locator("main");
      await expect.poll(() => main.textContent()).toContain("RT 01 / RW 05 Sukamaju");
      expect(await main.textContent()).toContain("petugas keamanan (satpam)");
      expect(await main.textContent()).toContain(email);
      expect(await app.seriousViolations(page), "join: axe serious/critical").toEqual([]);
      await app.screenshot(page, "join-360");

      await page.getByLabel("Kata sandi baru (minimal 8 karakter)").fill("sandi-penjaga-1");
      await page.getByRole("button", { name: "Bergabung" }).click();
      await page.getByRole("heading", { level: 1, name: /^Halo, Satria/ }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/");
      // Signed in for real: a reload keeps the session (the refresh cookie).
      await page.reload();
      await page.getByRole("heading", { level: 1, name: /^Halo, Satria/ }).waitFor();
    },
  },
  {
    name: "the magic link from the email signs in",
    run: async (app) => {
      const page = await app.page();
      await page.goto(`${app.url}/login`);
      await page.getByRole("link", { name: "Masuk dengan tautan lewat email" }).click();
      await page.getByRole("heading", { level: 1, name: "Masuk dengan tautan" }).waitFor();
      await page.getByLabel("Email").fill(RESIDENT);
      const since = app.outbox().length;
      await page.getByRole("button", { name: "Kirim tautan" }).click();
      await page.getByRole("status").filter({ hasText: "tautan masuk sudah kami kirim" }).waitFor();
      expect(await app.seriousViolations(page), "magic link: axe serious/critical").toEqual([]);
      await app.screenshot(page, "magic-360");

      const link = await app.linkSentTo(RESIDENT, "/auth/magic-link", since);
      await page.goto(here(app, link));
      await page.getByRole("heading", { level: 1, name: /^Halo, / }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/");
      expect(page.url()).not.toContain("token=");
    },
  },
  {
    name: "the reset link resets: forgot password in the app, the emailed link, a new password, signed in with it",
    run: async (app) => {
      const page = await app.page();
      const fresh = "sandi-baru-warga-2026";
      await page.goto(`${app.url}/login`);
      await page.getByRole("link", { name: "Lupa kata sandi?" }).click();
      await page.getByRole("heading", { level: 1, name: "Lupa kata sandi" }).waitFor();
      await page.getByLabel("Email").fill(RESIDENT);
      const since = app.outbox().length;
      await page.getByRole("button", { name: "Kirim tautan" }).click();
      await page.getByRole("status").filter({ hasText: "kata sandi baru sudah kami kirim" }).waitFor();

      const link = await app.linkSentTo(RESIDENT, "/reset-password", since);
      await page.goto(here(app, link));
      await page.getByRole("heading", { level: 1, name: "Buat kata sandi baru" }).waitFor();
      await app.settled(page);
      expect(page.url()).not.toContain("token=");
      // Two different passwords are caught before anything is sent.
      await page.getByLabel("Kata sandi baru (minimal 8 karakter)").fill(fresh);
      await page.getByLabel("Ulangi kata sandi baru").fill(`${fresh}x`);
      await page.getByRole("button", { name: "Simpan kata sandi" }).click();
      await page.getByText("Kedua kata sandi tidak sama.").waitFor();
      await page.getByLabel("Ulangi kata sandi baru").fill(fresh);
      expect(await app.seriousViolations(page), "reset: axe serious/critical").toEqual([]);
      await app.screenshot(page, "reset-360");
      await page.getByRole("button", { name: "Simpan kata sandi" }).click();

      await page.waitForURL(/\/login\?reset=1/);
      await page.getByText("Kata sandi sudah diganti.").waitFor();
      await app.signIn(page, RESIDENT, fresh);
      // The old password no longer works.
      const old = await fetch(`${app.url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: RESIDENT, password: DEMO_PASSWORD }),
      });
      expect(old.status).toBe(401);

      // The demo password back, through the same link, so the account is as the README says.
      const before = app.outbox().length;
      await fetch(`${app.url}/api/auth/forgot-password`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: RESIDENT }),
      });
      const again = new URL(await app.linkSentTo(RESIDENT, "/reset-password", before));
      const back = await fetch(`${app.url}/api/auth/reset-password`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
        body: JSON.stringify({ token: again.searchParams.get("token"), password: DEMO_PASSWORD }),
      });
      expect(back.status).toBe(204);
    },
  },
  {
    name: "a person applies to join a community on /daftar/:slug and is told what happens next",
    run: async (app) => {
      const page = await app.page();
      await page.goto(`${app.url}/daftar/rt-01-sukamaju`);
      await page.getByRole("heading", { level: 1, name: "Daftar sebagai warga" }).waitFor();
      await page.getByLabel("Nama lengkap").fill("Dewi Pendatang");
      await page.getByLabel("Nomor WhatsApp").fill(`0813${String(Date.now()).slice(-8)}`);
      await page.getByLabel("Blok").fill("C");
      await page.getByLabel("Nomor rumah").fill("12");
      expect(await app.seriousViolations(page), "daftar: axe serious/critical").toEqual([]);
      await app.screenshot(page, "daftar-360");
      await page.getByRole("button", { name: "Kirim pendaftaran" }).click();
      await page.getByRole("status").filter({ hasText: "Pendaftaran Anda sudah kami terima." }).waitFor();
      expect(await app.seriousViolations(page), "daftar sent: axe serious/critical").toEqual([]);
    },
  },
];
