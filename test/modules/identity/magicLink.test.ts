import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { platformDb } from "../../../src/core/db/platform";
import { memberships, oneTimeTokens } from "../../../src/core/db/platform-schema";
import { newId, sha256Hex } from "../../../src/core/ids";
import { bindings, callJson, createTenant, expectProblem } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { postSettled, type Session, sentMessage, tokenIn } from "./helpers";

const requestLink = (email: string, tenant?: string) =>
  postSettled("/api/auth/magic-link", { email, ...(tenant ? { tenant } : {}) });
const verify = (token: string) => callJson<Session>("/api/auth/magic-link/verify", { body: { token } });

describe("magic link", () => {
  it("emails MAGIC_LINK with a link to the portal, and the token signs in like a password", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("bendahara");
    const res = await requestLink(member.email);
    expect(res.status).toBe(202);
    const message = await sentMessage({ recipient: member.email, template: "MAGIC_LINK" });
    expect(String(message.payload.text)).toMatch(/http:\/\/app\.test\/auth\/magic-link\?token=[\w-]{43}/);
    expect(String(message.payload.text)).toContain("15 menit");
    const session = await verify(tokenIn(message));
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({
      id: member.id,
      roles: ["bendahara"],
      resident: false,
      tenant: { slug: tenant.slug },
    });
    expect(session.body.refreshToken).toHaveLength(43);
    expect((await callJson("/api/user/me", { token: session.body.accessToken })).status).toBe(200);
  });

  it("works once only", async () => {
    const member = await (await createTenant()).member("warga");
    await requestLink(member.email);
    const token = tokenIn(await sentMessage({ recipient: member.email, template: "MAGIC_LINK" }));
    expect((await verify(token)).status).toBe(200);
    expectProblem(await verify(token), 401, "token_used");
  });

  it("expires after 15 minutes", async () => {
    const member = await (await createTenant()).member("warga");
    await requestLink(member.email);
    const token = tokenIn(await sentMessage({ recipient: member.email, template: "MAGIC_LINK" }));
    const row = await platformDb(bindings)
      .select()
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.tokenHash, await sha256Hex(token)))
      .get();
    const lifetime = Date.parse(row?.expiresAt ?? "") - Date.parse(row?.createdAt ?? "");
    expect(Math.abs(lifetime - 15 * 60_000)).toBeLessThan(5_000);
    await platformDb(bindings)
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1).toISOString() })
      .where(eq(oneTimeTokens.tokenHash, await sha256Hex(token)));
    expectProblem(await verify(token), 401, "token_expired");
  });

  it("signs in to the named community", async () => {
    const rt = await createTenant();
    const rw = await createTenant({ type: "RW" });
    const member = await rt.member("warga");
    await platformDb(bindings)
      .insert(memberships)
      .values({ id: newId(), userId: member.id, tenantId: rw.id, roles: ["admin"] });
    await requestLink(member.email, rw.slug);
    const token = tokenIn(await sentMessage({ recipient: member.email, template: "MAGIC_LINK" }));
    const session = await verify(token);
    expect(session.body.user).toMatchObject({ roles: ["admin"], resident: false, tenant: { slug: rw.slug } });
  });

  it("answers the same 202 for an unknown email and sends nothing", async () => {
    const email = "bukan-warga@warga.test";
    const res = await requestLink(email);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: "accepted" });
    expect(await queuedMessages({ recipient: email })).toEqual([]);
  });

  it("rejects bad input and unknown tokens", async () => {
    expectProblem(await requestLink("bukan-email"), 400, "invalid_input");
    expectProblem(await verify("q".repeat(43)), 401, "token_invalid");
  });

  it("does not accept a reset token as a sign-in link", async () => {
    const member = await (await createTenant()).member("warga");
    await postSettled("/api/auth/forgot-password", { email: member.email });
    const token = tokenIn(await sentMessage({ recipient: member.email, template: "PASSWORD_RESET" }));
    expectProblem(await verify(token), 401, "token_invalid");
  });
});
