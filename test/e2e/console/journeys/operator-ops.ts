import { readFile } from "node:fs/promises";
import { expect } from "vitest";
import type { Journey, WebApp } from "../../web/harness";
import { overflowing } from "../overflow";

/**
 * The platform operator's operations (issue 47 item 4): the notification service's delivery log with a
 * retry, a community's archive, a person's erasure. Each journey makes its own community, so the others
 * on the same server see nothing of it. The notify stand-in of the e2e server keeps a delivery log
 * (scripts/lib/notify-standin.mjs) whose fake provider refuses any address containing `gagal`.
 */
const OPERATOR = "operator@warga.test";
const DESK = { width: 1280, height: 800 };

/** A community made through the operator's API route, with its first admin invited at `email`. */
async function newCommunity(app: WebApp, prefix: string, email: string) {
  const n = `${Date.now() % 1_000_000}`;
  const slug = `${prefix}-${n}`;
  const name = `RT Uji ${prefix} ${n}`;
  const operator = await app.apiAs(OPERATOR);
  const res = await operator("POST", "/api/platform/tenants", {
    slug,
    name,
    type: "RT",
    admin: { name: "Ibu Uji Operasi", email: email.replace("{n}", n) },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const tenant = (await res.json()) as { id: string };
  return { id: tenant.id, slug, name, n, email: email.replace("{n}", n) };
}

/** The operator on a desktop, signed in, on the operations section reached from the console's menu. */
async function opsPage(app: WebApp) {
  const page = await app.page(DESK);
  await app.signIn(page, OPERATOR);
  await page.goto(`${app.url}/platform/health`);
  await page
    .getByRole("navigation", { name: "Menu operator" })
    .getByRole("link", { name: "Pengiriman, data & arsip" })
    .click();
  await page.getByRole("heading", { level: 1, name: "Operasi platform" }).waitFor();
  await app.settled(page);
  return page;
}

export const operatorOpsJourneys: Journey[] = [
  {
    name: "the operator finds a failed notification and sends it again",
    run: async (app) => {
      // The first admin's invitation goes to an address the provider refuses: a failed delivery.
      const since = app.outbox().length;
      const community = await newCommunity(app, "gagal", "admin@gagal-{n}.test");
      expect(app.outbox().length).toBeGreaterThan(since);
      const masked = `a***@gagal-${community.n}.test`;

      const page = await opsPage(app);
      // Failed deliveries first: the log opens on them.
      expect(await page.getByLabel("Status").inputValue()).toBe("failed");
      const row = page.getByRole("row").filter({ hasText: masked });
      await row.waitFor();
      expect(await row.textContent()).toContain("Gagal");
      expect(await page.content()).not.toContain(`admin@gagal-${community.n}.test`);
      expect(await app.seriousViolations(page), "delivery log: axe serious/critical").toEqual([]);
      await app.screenshot(page, "operator-ops-deliveries-desktop");

      // The message: its attempt and the provider's refusal, then "Kirim ulang".
      await row.getByRole("link", { name: /^Rincian/ }).click();
      await page.getByRole("heading", { level: 1, name: "Pesan notifikasi" }).waitFor();
      await app.settled(page);
      const attempts = page.getByRole("table", { name: "Percobaan pengiriman" });
      await attempts.waitFor();
      expect(await attempts.textContent()).toContain("failed");
      expect(await attempts.textContent()).toContain(`${masked} is not a valid address`);
      expect(await app.seriousViolations(page), "message: axe serious/critical").toEqual([]);
      await page.getByRole("button", { name: "Kirim ulang" }).click();
      await page.getByText("Dikirim ulang: pesan kembali antre (Antre).").waitFor();
      await expect.poll(() => page.locator(".ops-facts .badge").textContent()).toBe("Antre");
      await app.screenshot(page, "operator-ops-message-desktop");

      // Back in the log it is no longer among the failed ones; "Semua" still shows it, queued.
      await page.getByRole("link", { name: "Kembali ke log pengiriman" }).click();
      await page.getByRole("heading", { level: 1, name: "Operasi platform" }).waitFor();
      await app.settled(page);
      expect(await page.getByRole("row").filter({ hasText: masked }).count()).toBe(0);
      await page.getByLabel("Status").selectOption({ label: "Semua" });
      await app.settled(page);
      await page.getByRole("row").filter({ hasText: masked }).filter({ hasText: "Antre" }).waitFor();

      // On a phone.
      const phone = await app.page();
      await app.signIn(phone, OPERATOR);
      await phone.goto(`${app.url}/platform/operations`);
      await phone.getByRole("heading", { level: 1, name: "Operasi platform" }).waitFor();
      await app.settled(phone);
      // Its row among the communities: the status in words, as the communities section says it.
      await phone.getByText(`${community.slug} · RT · Aktif`).waitFor();
      expect(await app.seriousViolations(phone), "delivery log 360: axe serious/critical").toEqual([]);
      expect(await overflowing(phone), "operations 360: nothing past the right edge").toEqual([]);
      await app.screenshot(phone, "operator-ops-deliveries-360");
    },
  },
  {
    name: "the operator exports a community's archive and downloads it",
    run: async (app) => {
      const community = await newCommunity(app, "arsip", "admin.arsip-{n}@warga.test");
      const page = await opsPage(app);
      await page.getByRole("link", { name: community.name }).click();
      await page.getByRole("heading", { level: 1, name: `Operasi komunitas ${community.name}` }).waitFor();
      await app.settled(page);
      await page.getByText("Belum ada arsip.").waitFor();
      expect(await app.seriousViolations(page), "community ops: axe serious/critical").toEqual([]);

      await page.getByRole("button", { name: "Buat ekspor" }).click();
      // Built in the background: progress until it is ready (the screen asks again, no clock here).
      await page.getByText("Ekspor siap diunduh.").waitFor({ timeout: 60_000 });
      const archives = page.getByRole("table", { name: "Arsip komunitas" });
      const ready = archives.getByRole("row").filter({ hasText: "Siap" });
      await ready.waitFor();
      await app.screenshot(page, "operator-ops-archives-desktop");

      // The operator presses "Unduh" and the browser saves the ZIP (the screen asks the route on this
      // origin: the answer's downloadUrl is absolute on the configured APP_URL, another port here).
      const [download] = await Promise.all([
        page.waitForEvent("download", { timeout: 60_000 }),
        ready.getByRole("button", { name: /^Unduh/ }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.zip$/);
      const file = await readFile((await download.path()) ?? "");
      // A ZIP: local file header "PK\x03\x04".
      expect(file.subarray(0, 4).toString("hex")).toBe("504b0304");

      const phone = await app.page();
      await app.signIn(phone, OPERATOR);
      await phone.goto(`${app.url}/platform/operations/communities/${community.id}`);
      await phone.getByRole("heading", { level: 1, name: `Operasi komunitas ${community.name}` }).waitFor();
      await app.settled(phone);
      expect(await app.seriousViolations(phone), "community ops 360: axe serious/critical").toEqual([]);
      expect(await overflowing(phone), "community ops 360: nothing past the right edge").toEqual([]);
      await app.screenshot(phone, "operator-ops-archives-360");
    },
  },
  {
    name: "the operator erases a person's data after confirming",
    run: async (app) => {
      const since = app.outbox().length;
      const community = await newCommunity(app, "hapus", "admin.hapus-{n}@warga.test");
      // The invited admin sets a password (the invitation's link, through the API) and has an account id.
      const link = new URL(await app.linkSentTo(community.email, "/reset-password", since));
      const reset = await fetch(`${app.url}/api/auth/reset-password`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token: link.searchParams.get("token"), password: "sandi-admin-hapus-1" }),
      });
      expect(reset.status, await reset.clone().text()).toBe(204);
      const login = await fetch(`${app.url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          email: community.email,
          password: "sandi-admin-hapus-1",
          tenant: community.slug,
        }),
      });
      expect(login.status, await login.clone().text()).toBe(200);
      const userId = ((await login.json()) as { user: { id: string } }).user.id;

      const page = await opsPage(app);
      await page.goto(`${app.url}/platform/operations/communities/${community.id}`);
      await page.getByRole("heading", { level: 1, name: `Operasi komunitas ${community.name}` }).waitFor();
      await app.settled(page);
      await page.getByText("Belum ada penghapusan di komunitas ini.").waitFor();
      await page.getByLabel("ID akun orang tersebut").fill(userId);
      await page.getByRole("button", { name: "Hapus data pribadi" }).click();

      // The confirmation names what is erased, and where; cancelling keeps what was typed.
      const dialog = page.getByRole("dialog", {
        name: `Hapus data pribadi akun ${userId} di ${community.name}?`,
      });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain("nama, NIK, nomor telepon, alamat email");
      expect(await app.seriousViolations(page), "erasure confirm: axe serious/critical").toEqual([]);
      await app.screenshot(page, "operator-ops-erasure-confirm-desktop");
      await dialog.getByRole("button", { name: "Batal" }).click();
      expect(await page.getByLabel("ID akun orang tersebut").inputValue()).toBe(userId);

      await page.getByRole("button", { name: "Hapus data pribadi" }).click();
      await dialog.getByRole("button", { name: "Ya, hapus datanya" }).click();
      await page.getByText(/^Data pribadi dihapus\. Rujukan anonim: erased:[0-9a-f]{16}\./).waitFor();
      const past = page.getByRole("table", { name: "Penghapusan sebelumnya" });
      await past.getByRole("row").filter({ hasText: userId }).waitFor();
      expect(await app.seriousViolations(page), "erasure: axe serious/critical").toEqual([]);
      await app.screenshot(page, "operator-ops-erasure-desktop");
    },
  },
];
