import { expect } from "vitest";
import type { Journey, WebApp } from "../../web/harness";

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

/** Today's calendar day in Asia/Jakarta, and the days either side. */
function jakartaDay(offsetDays = 0): string {
  return new Date(Date.now() + 7 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
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
      await app.screenshot(phone, "console-operator-ticket-360");
      await phone.goto(`${app.url}/platform/support-tickets?tenant=${ADMIN_SLUG}`);
      await phone.getByRole("link", { name: title }).waitFor();
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
    name: "the operator's date filter counts today's ticket on its Jakarta day, both ends inclusive",
    run: async (app) => {
      // The API stamps a ticket with the time it was opened and nothing sets it otherwise, so the 23:30
      // case is the API's own test; here the inclusive day boundaries of the screen's filter.
      const title = `Tiket hari ini ${Date.now() % 100_000}`;
      await openTicket(app, title, false);
      const today = jakartaDay();
      const operator = await app.apiAs(OPERATOR);
      const page = await app.page(DESK);
      await app.signIn(page, OPERATOR);
      await page.goto(`${app.url}/platform/support-tickets`);
      await page.getByRole("heading", { level: 1, name: "Tiket dukungan" }).waitFor();
      await page.getByLabel("Dibuat sejak").fill(today);
      await page.getByLabel("Dibuat sampai").fill(today);
      await page.getByRole("link", { name: title }).waitFor();
      // The counts follow the filters: the same as the API's under the same filters.
      const api = (await (
        await operator("GET", `/api/platform/support-tickets?from=${today}&to=${today}&limit=1`)
      ).json()) as { summary: { total: number } };
      const kpis = page.getByRole("list", { name: "Jumlah tiket menurut saringan" });
      await expect
        .poll(() => kpis.getByRole("listitem").first().textContent())
        .toBe(`${api.summary.total} Total`);
      expect(await app.seriousViolations(page), "inbox filtered: axe serious/critical").toEqual([]);
      // The day before ends before the ticket; the day after starts after it.
      await page.getByLabel("Dibuat sejak").fill(jakartaDay(-1));
      await page.getByLabel("Dibuat sampai").fill(jakartaDay(-1));
      await app.settled(page);
      await page.getByRole("heading", { level: 1, name: "Tiket dukungan" }).waitFor();
      await expect.poll(() => page.getByRole("link", { name: title }).count()).toBe(0);
      await page.getByLabel("Dibuat sampai").fill(jakartaDay(1));
      await page.getByLabel("Dibuat sejak").fill(jakartaDay(1));
      await app.settled(page);
      await expect.poll(() => page.getByRole("link", { name: title }).count()).toBe(0);
      // The one day, from yesterday to today: inclusive at its end.
      await page.getByLabel("Dibuat sejak").fill(jakartaDay(-1));
      await page.getByLabel("Dibuat sampai").fill(today);
      await page.getByRole("link", { name: title }).waitFor();
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
