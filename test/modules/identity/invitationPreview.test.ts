import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { oneTimeTokens } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { sha256Hex } from "../../../src/core/ids";
import { bindings, call, callJson, createTenant, expectProblem, insertUser } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { invite } from "../members/helpers";
import { postSettled, sentMessage, tokenIn } from "./helpers";

/** Issue 43: the web app's landing of an invitation shows the community and duties before acting. */
const preview = (token: unknown) => callJson("/api/auth/join/preview", { body: { token } });

async function linkSentTo(recipient: string): Promise<string> {
  const [message] = await queuedMessages({ recipient });
  return tokenIn(message ?? ({ payload: {} } as never));
}

describe("POST /api/auth/join/preview", () => {
  it("shows a new account's invitation: the community, the duties, no password yet, the sign-in name; spends nothing", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const email = `baru-${crypto.randomUUID().slice(0, 8)}@warga.test`;
    expect(
      (await invite(admin.token, { name: "Sinta Sekretaris", email, roles: ["sekretaris"] })).status,
    ).toBe(202);
    const token = await linkSentTo(email);

    const res = await preview(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: "invitation",
      hasAccount: false,
      name: "Sinta Sekretaris",
      signInWith: { email, whatsapp: null },
      tenant: { slug: tenant.slug, name: "RT Uji", type: "RT" },
      roles: ["sekretaris"],
      resident: false,
    });
    // Looking twice is fine, and the link still sets the password afterwards.
    expect((await preview(token)).status).toBe(200);
    expect(
      (await callJson("/api/auth/reset-password", { body: { token, password: "sandi-sinta-1" } })).status,
    ).toBe(204);
    expectProblem(await preview(token), 409, "token_used");
  });

  it("shows an existing account's join link with its duties; the link is still accepted afterwards", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const existing = await insertUser({ name: "Bu Ani" });
    await invite(admin.token, { name: "Ani", email: existing.email, roles: ["bendahara"] });
    const token = await linkSentTo(existing.email);

    const res = await preview(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: "join",
      hasAccount: true,
      name: "Bu Ani",
      signInWith: null,
      tenant: { slug: tenant.slug, name: "RT Uji", type: "RT" },
      roles: ["bendahara"],
      resident: false,
    });
    expect((await callJson("/api/auth/join/accept", { body: { token } })).status).toBe(200);
    expectProblem(await preview(token), 409, "token_used");
  });

  it("refuses an unknown, an expired and a password-reset token, and a request without one", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const email = `kedaluwarsa-${crypto.randomUUID().slice(0, 8)}@warga.test`;
    expect((await invite(admin.token, { name: "Telat Buka", email, roles: ["satpam"] })).status).toBe(202);
    const token = await linkSentTo(email);
    await platformDb(bindings)
      .update(oneTimeTokens)
      .set({ expiresAt: "2020-01-01T00:00:00.000Z" })
      .where(eq(oneTimeTokens.tokenHash, await sha256Hex(token)));
    expectProblem(await preview(token), 400, "token_expired");

    expectProblem(await preview("tokenYangTidakAdaSamaSekali0123456789abcdef"), 400, "token_invalid");

    // A reset link is not an invitation: nothing about the account is told for it.
    const user = await insertUser({});
    await postSettled("/api/auth/forgot-password", { email: user.email });
    const resetLink = await sentMessage({ recipient: user.email, template: "PASSWORD_RESET" });
    expectProblem(await preview(tokenIn(resetLink)), 400, "token_invalid");

    expect((await callJson("/api/auth/join/preview", { body: {} })).status).toBe(400);
    expect((await preview(42)).status).toBe(400);
  });
});

describe("GET /api/auth/providers", () => {
  it("names the configured providers with their client secret set, and nothing else", async () => {
    const res = await call("/api/auth/providers");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { providers: { name: string }[] };
    expect(body).toEqual({ providers: [{ name: "google" }] });
    expect(JSON.stringify(body)).not.toContain("secret");
  });
});
