import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PlatformCtx, ServiceEnv } from "../../../src/core/context";
import { platformDb } from "../../../src/core/db/platform";
import { loadConfig } from "../../../src/core/env";
import { serviceEnv, tenantCtxFor } from "../../../src/core/tenancy/system";
import { systemNow } from "../../../src/core/time";
import { supportTickets } from "../../../src/modules/support/platform-tables";
import { submitContact } from "../../../src/modules/support/public";
import { createTicket } from "../../../src/modules/support/tickets";
import { bindings, callJson, expectProblem, unique } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { tenantWithAdmin } from "./helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

const fromIp = (ip: string) => ({ "CF-Connecting-IP": ip });
const contact = (email: string, extra: Record<string, unknown> = {}) => ({
  name: "Siti Aminah",
  email,
  phone: "081234567890",
  subject: "Ingin mencoba Warga",
  message: "Kami ingin mencoba Warga untuk 12 RT.",
  ...extra,
});
const ticketsFrom = (email: string) =>
  platformDb(bindings).select().from(supportTickets).where(eq(supportTickets.submitterEmail, email)).all();

/** A context as core builds it, with some bindings replaced (a secret, a notification service that is down). */
function ctxWith(env: Record<string, unknown>, ip = "192.0.2.10"): PlatformCtx {
  return {
    actor: { kind: "public", ip },
    platform: platformDb(bindings),
    env: { ...serviceEnv(bindings), ...env } as ServiceEnv,
    config: loadConfig(bindings),
    requestId: unique("req"),
    ip,
    now: systemNow,
  };
}

describe("contact form", () => {
  it("creates a homepage ticket and sends CONTACT_INQUIRY and CONTACT_AUTO_REPLY", async () => {
    const email = `${unique("kontak")}@example.id`;
    const res = await callJson("/api/public/contact", { body: contact(email), headers: fromIp("192.0.2.1") });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: "diterima" });
    const [ticket] = await ticketsFrom(email);
    expect(ticket).toMatchObject({
      source: "homepage",
      status: "baru",
      tenantId: null,
      title: "Ingin mencoba Warga",
    });
    const [reply] = await queuedMessages({ recipient: email, template: "CONTACT_AUTO_REPLY" });
    expect(reply?.payload.replyTo).toBe("balas@support.warga.test");
    // The sender can answer by email: the token in the subject threads the reply into this ticket.
    expect(reply?.subject).toMatch(/^\[TKT:[\w-]{22,64}\] Terima kasih/);
    expect(String(reply?.payload.text)).toContain("Siti Aminah");
    const inquiries = await queuedMessages({ recipient: "ops-a@warga.test", template: "CONTACT_INQUIRY" });
    expect(inquiries.some((m) => String(m.payload.text).includes(email))).toBe(true);
    // The operators see it in their list, without a tenant label.
    const list = await callJson<{ items: { id: string; tenant: string | null; source: string }[] }>(
      "/api/platform/support-tickets?limit=100",
      { token: await (await import("../../helpers/harness")).operatorToken() },
    );
    expect(list.body.items.find((t) => t.id === ticket?.id)).toMatchObject({
      tenant: null,
      source: "homepage",
    });
  });

  it("answers a bot that fills the honeypot the same way, and stores nothing", async () => {
    const email = `${unique("bot")}@example.id`;
    const res = await callJson("/api/public/contact", {
      body: contact(email, { website: "http://spam.example" }),
      headers: fromIp("192.0.2.2"),
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: "diterima" });
    expect(await ticketsFrom(email)).toEqual([]);
    expect(await queuedMessages({ recipient: email })).toEqual([]);
  });

  it("rate limits one IP", async () => {
    const ip = "192.0.2.3";
    for (let i = 0; i < 5; i++) {
      const res = await callJson("/api/public/contact", {
        body: contact(`${unique("rl")}@example.id`),
        headers: fromIp(ip),
      });
      expect(res.status).toBe(202);
    }
    const limited = await callJson("/api/public/contact", {
      body: contact(`${unique("rl")}@example.id`),
      headers: fromIp(ip),
    });
    expectProblem(limited, 429, "rate_limited");
  });

  it("validates the body", async () => {
    expectProblem(
      await callJson("/api/public/contact", {
        body: { name: "x", email: "bukan-email" },
        headers: fromIp("192.0.2.4"),
      }),
      400,
      "invalid_input",
    );
  });

  it("verifies Turnstile when a secret is configured", async () => {
    const calls: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      calls.push(url);
      const form = init?.body as FormData;
      const ok = form.get("response") === "token-baik" && form.get("secret") === "turnstile-secret";
      return Response.json(
        ok
          ? { success: true, "error-codes": [] }
          : { success: false, "error-codes": ["invalid-input-response"] },
      );
    });
    const env = { TURNSTILE_SECRET_KEY: "turnstile-secret" };
    const missing = `${unique("ts")}@example.id`;
    await expect(
      submitContact({ ctx: ctxWith(env, "192.0.2.20"), input: contact(missing) as never }),
    ).rejects.toMatchObject({
      code: "turnstile_required",
    });
    await expect(
      submitContact({
        ctx: ctxWith(env, "192.0.2.21"),
        input: contact(missing, { turnstileToken: "token-buruk" }) as never,
      }),
    ).rejects.toMatchObject({ code: "turnstile_failed" });
    expect(await ticketsFrom(missing)).toEqual([]);
    const good = `${unique("ts")}@example.id`;
    await submitContact({
      ctx: ctxWith(env, "192.0.2.22"),
      input: contact(good, { turnstileToken: "token-baik" }) as never,
    });
    expect(await ticketsFrom(good)).toHaveLength(1);
    expect(calls.every((u) => u === "https://challenges.cloudflare.com/turnstile/v0/siteverify")).toBe(true);
    expect(calls).toHaveLength(2);
  });
});

describe("notification failures", () => {
  it("never lose the ticket: it is stored and marked notification_pending", async () => {
    const down = { NOTIFY: { fetch: async () => new Response("down", { status: 503 }) } };
    const email = `${unique("down")}@example.id`;
    await submitContact({ ctx: ctxWith(down, "192.0.2.30"), input: contact(email) as never });
    const [ticket] = await ticketsFrom(email);
    expect(ticket?.notificationPending).toBe(true);
    // Nothing will send an email that was never handed over: failed, not merely pending.
    expect(ticket?.notificationFailed).toBe(true);

    const { tenant, admin } = await tenantWithAdmin();
    const base: PlatformCtx = { ...ctxWith({}), env: serviceEnv(bindings) };
    const ctx = await tenantCtxFor(base, tenant.slug, {
      actor: {
        kind: "user",
        userId: admin.id,
        roles: ["admin"],
        sessionId: "s",
        tenantSlug: tenant.slug,
      },
    });
    const created = await createTicket({
      ctx: { ...ctx, env: ctxWith(down).env },
      input: { category: "teknis", title: "Saat layanan mati", detail: "Tetap tersimpan." },
    });
    expect(created.status).toBe("baru");
    expect(created.notification_pending).toBe(true);
    expect(created.notification_failed).toBe(true);
  });
});
