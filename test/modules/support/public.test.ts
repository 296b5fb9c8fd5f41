import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, expectProblem } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import {
  HTML,
  insertTicket,
  JPEG,
  openTicket,
  PNG,
  pathOf,
  type TicketView,
  tenantWithAdmin,
  ticketRow,
  upload,
} from "./helpers";

const fromIp = (ip: string) => ({ "CF-Connecting-IP": ip });

describe("login-free replies by reply token", () => {
  it("shows the thread without the submitter's details, and 404 for an unknown token", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin, { title: "Judul publik" });
    const res = await callJson<Record<string, unknown>>(`/api/public/support-tickets/${ticket.reply_token}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      number: ticket.number,
      title: "Judul publik",
      status: "baru",
      messages: [],
    });
    expect(res.body).not.toHaveProperty("submitter_email");
    expect(res.body).not.toHaveProperty("reply_token");
    const unknown = "A".repeat(43);
    expectProblem(await callJson(`/api/public/support-tickets/${unknown}`), 404, "ticket_not_found");
    expectProblem(await callJson("/api/public/support-tickets/pendek"), 404, "ticket_not_found");
    expectProblem(
      await callJson(`/api/public/support-tickets/${unknown}/messages`, { body: { message: "halo" } }),
      404,
      "ticket_not_found",
    );
  });

  it("appends a reply with an image, reopens a selesai ticket and tells the operators", async () => {
    const { tenant } = await tenantWithAdmin();
    const { id, token } = await insertTicket({
      tenant,
      createdAt: new Date().toISOString(),
      status: "selesai",
    });
    const up = await upload(`/api/public/support-tickets/${token}/uploads`, {
      bytes: PNG,
      name: "a.jpg",
      type: "image/jpeg",
    });
    expect(up.status).toBe(201);
    expect(String(up.body.url)).toContain(`/api/public/support-tickets/${token}/files/`);
    const res = await callJson<TicketView>(`/api/public/support-tickets/${token}/messages`, {
      body: { message: "Masih error, ini gambarnya.", lampiran_url: up.body.url },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("diproses");
    expect(res.body.messages).toMatchObject([
      { author: "submitter", lampiran_url: up.body.url, status_change: "diproses" },
    ]);
    expect((await ticketRow(id))?.status).toBe("diproses");
    const image = await call(pathOf(String(up.body.url)));
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/png");
    const told = await queuedMessages({
      recipient: "ops-b@warga.test",
      template: "SUPPORT_TICKET_SUBMITTER_REPLIED",
    });
    expect(told.some((m) => m.subject?.includes(`[TKT:${token}]`))).toBe(true);
  });

  it("keeps each token to its own ticket's files", async () => {
    const { tenant } = await tenantWithAdmin();
    const a = await insertTicket({ tenant, createdAt: new Date().toISOString() });
    const b = await insertTicket({ tenant, createdAt: new Date().toISOString() });
    const up = await upload(`/api/public/support-tickets/${a.token}/uploads`, {
      bytes: JPEG,
      name: "a.jpg",
      type: "image/jpeg",
    });
    const fileId = String(up.body.url).split("/").pop();
    expect((await call(`/api/public/support-tickets/${a.token}/files/${fileId}`)).status).toBe(200);
    expectProblem(await callJson(`/api/public/support-tickets/${b.token}/files/${fileId}`), 404, "not_found");
    // Nor can another ticket's token attach it.
    expectProblem(
      await callJson(`/api/public/support-tickets/${b.token}/messages`, {
        body: { message: "x", lampiran_url: up.body.url },
      }),
      400,
      "invalid_attachment",
    );
  });

  it("applies the image limits to public uploads too", async () => {
    const { tenant } = await tenantWithAdmin();
    const { token } = await insertTicket({ tenant, createdAt: new Date().toISOString() });
    expectProblem(
      await upload(`/api/public/support-tickets/${token}/uploads`, {
        bytes: HTML,
        name: "a.png",
        type: "image/png",
      }),
      415,
      "unsupported_image_type",
    );
    expectProblem(
      await upload(`/api/public/support-tickets/${"B".repeat(43)}/uploads`, {
        bytes: PNG,
        name: "a.png",
        type: "image/png",
      }),
      404,
      "ticket_not_found",
    );
  });

  it("rate limits writes per IP", async () => {
    const { tenant } = await tenantWithAdmin();
    const { token } = await insertTicket({ tenant, createdAt: new Date().toISOString() });
    const ip = "198.51.100.23";
    let last = await callJson(`/api/public/support-tickets/${"C".repeat(43)}/messages`, {
      body: { message: "tebak" },
      headers: fromIp(ip),
    });
    for (let i = 0; i < 30; i++) {
      last = await callJson(`/api/public/support-tickets/${i % 2 ? token : "D".repeat(43)}/messages`, {
        body: { message: `tebak ${i}` },
        headers: fromIp(ip),
      });
    }
    expectProblem(last, 429, "rate_limited");
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
  });
});

describe("the public reply page", () => {
  it("serves the thread and a multipart form, with no inline script", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin, { title: "Judul <b>halaman</b>" });
    const res = await call(`/support/reply/${ticket.reply_token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    expect(res.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain("Judul &lt;b&gt;halaman&lt;/b&gt;");
    expect(html).toContain('enctype="multipart/form-data"');
    expect(html).toContain(`action="/support/reply/${ticket.reply_token}"`);
    expect(html).not.toMatch(/<script/i);
    const unknown = await call(`/support/reply/${"E".repeat(43)}`);
    expect(unknown.status).toBe(404);
  });

  it("posts a reply with an image through the form and redirects back", async () => {
    const { tenant } = await tenantWithAdmin();
    const { id, token } = await insertTicket({
      tenant,
      createdAt: new Date().toISOString(),
      status: "selesai",
    });
    const form = new FormData();
    form.set("message", "Dari formulir halaman.");
    form.set("file", new File([PNG], "layar.png", { type: "image/png" }));
    const res = await exports.default.fetch(
      new Request(`http://api.test/support/reply/${token}`, {
        method: "POST",
        body: form,
        redirect: "manual",
      }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/support/reply/${token}?terkirim=1`);
    const page = await (
      await call(`/support/reply/${token}?terkirim=1`, { headers: { "Accept-Language": "id" } })
    ).text();
    expect(page).toContain("Dari formulir halaman.");
    expect(page).toContain("Balasan Anda sudah terkirim.");
    expect(page).toMatch(new RegExp(`<img src="http://[^"]+/api/public/support-tickets/${token}/files/`));
    expect((await ticketRow(id))?.status).toBe("diproses");
    // Without a chosen file the browser still sends an empty part: the reply goes through without one.
    const noFile = new FormData();
    noFile.set("message", "Tanpa gambar.");
    noFile.set("file", new File([], "", { type: "application/octet-stream" }));
    const second = await exports.default.fetch(
      new Request(`http://api.test/support/reply/${token}`, {
        method: "POST",
        body: noFile,
        redirect: "manual",
      }),
    );
    expect(second.status).toBe(303);
    // A disguised file comes back as the page with the reason.
    const bad = new FormData();
    bad.set("message", "Gambar palsu.");
    bad.set("file", new File([HTML], "x.png", { type: "image/png" }));
    const refused = await exports.default.fetch(
      new Request(`http://api.test/support/reply/${token}`, {
        method: "POST",
        body: bad,
        headers: { "Accept-Language": "id" },
        redirect: "manual",
      }),
    );
    expect(refused.status).toBe(415);
    expect(await refused.text()).toContain("Hanya gambar JPEG, PNG atau WebP");
  });
});
