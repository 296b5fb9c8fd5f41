import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { oneTimeTokens } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { sha256Hex } from "../../../src/core/ids";
import { bindings, callJson, createTenant, expectProblem, insertUser, PASSWORD } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { postSettled, type Session, sentMessage, tokenIn } from "./helpers";

async function requestReset(email: string): Promise<string> {
  const res = await postSettled("/api/auth/forgot-password", { email });
  expect(res.status).toBe(202);
  return tokenIn(await sentMessage({ recipient: email, template: "PASSWORD_RESET" }));
}

const reset = (token: string, password: string) =>
  callJson("/api/auth/reset-password", { body: { token, password } });

describe("forgot and reset password", () => {
  it("emails PASSWORD_RESET with the template's variables and a link to the API's reset page", async () => {
    const user = await insertUser({ name: "Bu Sri" });
    await postSettled("/api/auth/forgot-password", { email: user.email.toUpperCase() });
    const message = await sentMessage({ recipient: user.email, template: "PASSWORD_RESET" });
    const text = String(message.payload.text);
    expect(text).toContain("Bu Sri");
    expect(text).toMatch(/http:\/\/app\.test\/reset-password\?token=[\w-]{43}/);
    expect(text).toContain("60 menit");
    // Stored hashed, never in clear.
    const token = tokenIn(message);
    const row = await platformDb(bindings)
      .select()
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.tokenHash, await sha256Hex(token)))
      .get();
    expect(row).toMatchObject({ purpose: "password_reset", usedAt: null });
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("sets the new password, ends every session, and refuses the link a second time", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    const session = (
      await callJson<Session>("/api/auth/login", { body: { email: member.email, password: PASSWORD } })
    ).body;
    expect((await callJson("/api/user/me", { token: session.accessToken })).status).toBe(200);
    const token = await requestReset(member.email);
    expect((await reset(token, "kata-sandi-baru-1")).status).toBe(204);

    expectProblem(
      await callJson("/api/auth/refresh", { body: { refreshToken: session.refreshToken } }),
      401,
      "invalid_refresh_token",
    );
    expectProblem(await callJson("/api/user/me", { token: session.accessToken }), 401, "session_revoked");
    expectProblem(
      await callJson("/api/auth/login", { body: { email: member.email, password: PASSWORD } }),
      401,
      "invalid_credentials",
    );
    expect(
      (await callJson("/api/auth/login", { body: { email: member.email, password: "kata-sandi-baru-1" } }))
        .status,
    ).toBe(200);
    expectProblem(await reset(token, "kata-sandi-baru-2"), 400, "token_used");
  });

  it("answers 400 password_too_short under 8 characters and keeps the token usable", async () => {
    const user = await insertUser({});
    const token = await requestReset(user.email);
    const short = await reset(token, "1234567");
    expectProblem(short, 400, "password_too_short");
    expect((short.body as { errors: unknown[] }).errors).toEqual([
      { field: "password", message: expect.any(String) },
    ]);
    expect((await reset(token, "12345678")).status).toBe(204);
  });

  it("refuses an expired link and an unknown one", async () => {
    const user = await insertUser({});
    const token = await requestReset(user.email);
    await platformDb(bindings)
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(oneTimeTokens.tokenHash, await sha256Hex(token)));
    expectProblem(await reset(token, "kata-sandi-baru"), 400, "token_expired");
    expectProblem(await reset("z".repeat(43), "kata-sandi-baru"), 400, "token_invalid");
  });

  it("keeps only the newest reset link alive", async () => {
    const user = await insertUser({});
    const first = await requestReset(user.email);
    const latest = await requestReset(user.email);
    expect(await queuedMessages({ recipient: user.email, template: "PASSWORD_RESET" })).toHaveLength(2);
    expect(latest).not.toBe(first);
    expectProblem(await reset(first, "kata-sandi-baru"), 400, "token_used");
    expect((await reset(latest, "kata-sandi-baru")).status).toBe(204);
  });

  it("sends nothing for an unknown email and answers exactly the same", async () => {
    const unknown = "tidak-ada@warga.test";
    const res = await postSettled("/api/auth/forgot-password", { email: unknown });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: "accepted" });
    expect(await queuedMessages({ recipient: unknown })).toEqual([]);
  });
});
