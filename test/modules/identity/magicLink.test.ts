import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactCodes, memberships, oneTimeTokens, users } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { auditLog } from "../../../src/core/db/platform-schema";
import { newId, sha256Hex } from "../../../src/core/ids";
import { auditTrail } from "../../helpers/contexts";
import { bindings, callJson, createTenant, expectProblem, insertUser } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { allMembers, invite, nextPhone } from "../members/helpers";
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

describe("signing in with a WhatsApp code (issue 45)", () => {
  const askCode = (whatsapp: string) => postSettled("/api/auth/otp/request", { whatsapp });
  const enter = (whatsapp: string, code: string) =>
    callJson<Session>("/api/auth/otp/verify", { body: { whatsapp, code } });
  async function codeSentTo(recipient: string): Promise<string> {
    const message = (await queuedMessages({ recipient })).at(-1);
    const match = /Kode masuk Warga Anda: (\d{6})/.exec(JSON.stringify(message?.payload));
    if (!match?.[1]) {
      throw new Error(`no sign-in code was sent to ${recipient}`);
    }
    return match[1];
  }
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  it("sends a code to a verified number only, and the code signs in once", async () => {
    const tenant = await createTenant();
    const phone = nextPhone();
    const satpam = await tenant.member("satpam", { whatsapp: phone.stored });
    const sent = await askCode(phone.typed);
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ status: "accepted" });
    const code = await codeSentTo(phone.stored);
    expectProblem(await enter(phone.typed, wrong(code)), 401, "code_invalid");
    const session = await enter(phone.typed, code);
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({
      id: satpam.id,
      roles: ["satpam"],
      tenant: { slug: tenant.slug },
    });
    expect((await callJson("/api/user/me", { token: session.body.accessToken })).status).toBe(200);
    expectProblem(await enter(phone.typed, code), 401, "code_invalid");
  });

  it("answers an unknown or unverified number as a known one and sends it nothing", async () => {
    const tenant = await createTenant();
    const known = nextPhone();
    const claimed = nextPhone();
    await tenant.member("warga", { whatsapp: known.stored });
    await tenant.member("warga", { whatsapp: claimed.stored, whatsappVerified: false });
    const unknown = nextPhone();
    const a = await askCode(known.typed);
    const b = await askCode(unknown.typed);
    const c = await askCode(claimed.typed);
    expect([b.status, b.body, c.status, c.body]).toEqual([a.status, a.body, a.status, a.body]);
    expect(await queuedMessages({ recipient: known.stored })).toHaveLength(1);
    expect(await queuedMessages({ recipient: unknown.stored })).toEqual([]);
    expect(await queuedMessages({ recipient: claimed.stored })).toEqual([]);
    expectProblem(await enter(unknown.typed, "123456"), 401, "code_invalid");
    expectProblem(await askCode("12345"), 400, "invalid_input");
    expectProblem(await enter(known.typed, "12ab56"), 400, "invalid_input");
  });

  it("spends a code after five wrong tries, and a new code retires the older", async () => {
    const phone = nextPhone();
    await (await createTenant()).member("warga", { whatsapp: phone.stored });
    await askCode(phone.typed);
    const first = await codeSentTo(phone.stored);
    await askCode(phone.typed);
    const second = await codeSentTo(phone.stored);
    if (first !== second) {
      expectProblem(await enter(phone.typed, first), 401, "code_invalid");
    }
    for (let i = 0; i < 4; i += 1) {
      expectProblem(await enter(phone.typed, wrong(second)), 401, "code_invalid");
    }
    // The fifth try was spent above when the first code was refused (or here): the right code no longer works.
    if (first === second) {
      expectProblem(await enter(phone.typed, wrong(second)), 401, "code_invalid");
    }
    expectProblem(await enter(phone.typed, second), 401, "code_invalid");
  });

  it("expires after ten minutes, and a profile verification code does not sign in", async () => {
    const phone = nextPhone();
    const member = await (await createTenant()).member("warga", { whatsapp: phone.stored });
    await askCode(phone.typed);
    const code = await codeSentTo(phone.stored);
    await platformDb(bindings)
      .update(contactCodes)
      .set({ expiresAt: new Date(Date.now() - 1).toISOString() })
      .where(eq(contactCodes.userId, member.id));
    expectProblem(await enter(phone.typed, code), 401, "code_invalid");
  });
});

describe("a sign-in code handed over by an officer (issue 45)", () => {
  const issue = (token: string, userId: string) =>
    callJson<{ code: string; link: string; qrSvg: string; expiresAt: string }>(
      `/api/members/${userId}/sign-in-code`,
      { token, method: "POST" },
    );
  const redeem = (code: string) => callJson<Session>("/api/auth/code/redeem", { body: { code } });

  it("signs the member in once, typed loosely, and is shown once, hashed at rest and audited", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const satpam = await tenant.member("satpam");
    const issued = await issue(admin.token, satpam.id);
    expect(issued.status).toBe(201);
    expect(issued.body.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(issued.body.link).toBe(`http://app.test/auth/code?code=${issued.body.code}`);
    expect(issued.body.qrSvg).toMatch(/^<\?xml|^<svg/);
    expect(Date.parse(issued.body.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(Date.parse(issued.body.expiresAt) - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const rows = await platformDb(bindings)
      .select()
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.userId, satpam.id));
    expect(JSON.stringify(rows)).not.toContain(issued.body.code);
    const audit = await platformDb(bindings)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, tenant.id), eq(auditLog.action, "member.sign_in_code")));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(issued.body.code);

    const typed = issued.body.code.toLowerCase().replace(/-/g, " ");
    const session = await redeem(typed);
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({
      id: satpam.id,
      roles: ["satpam"],
      tenant: { slug: tenant.slug },
    });
    expectProblem(await redeem(issued.body.code), 401, "token_used");
  });

  it("retires the older code, expires, and refuses bad codes", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const warga = await tenant.member("warga");
    const first = (await issue(admin.token, warga.id)).body.code;
    const second = (await issue(admin.token, warga.id)).body.code;
    expectProblem(await redeem(first), 401, "token_used");
    await platformDb(bindings)
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1).toISOString() })
      .where(eq(oneTimeTokens.userId, warga.id));
    expectProblem(await redeem(second), 401, "token_expired");
    expectProblem(await redeem("ZZZZ-ZZZZ-ZZZZ"), 401, "token_invalid");
    expectProblem(await redeem("UUUU-UUUU-UUUU"), 401, "token_invalid");
    expectProblem(await redeem("short"), 400, "invalid_input");
  });

  it("is the admin's alone, for members of this community who belong nowhere else", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const admin = await tenant.member("admin");
    const sekretaris = await tenant.member("sekretaris");
    const warga = await tenant.member("warga");
    expectProblem(await issue(sekretaris.token, warga.id), 403, "forbidden_role");
    expectProblem(await issue(warga.token, warga.id), 403, "forbidden_role");
    const stranger = await other.member("warga");
    expectProblem(await issue(admin.token, stranger.id), 404, "not_found");
    await platformDb(bindings)
      .insert(memberships)
      .values({ id: newId(), userId: warga.id, tenantId: other.id, roles: ["admin"] });
    expectProblem(await issue(admin.token, warga.id), 409, "sign_in_code_refused");
  });

  it("accepts a pending invitation: the invited member joins by the code", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const phone = nextPhone();
    const invited = await callJson("/api/members/invitations", {
      token: admin.token,
      body: { name: "Pak Udin", whatsapp: phone.typed, roles: ["satpam"] },
    });
    expect(invited.status).toBeLessThan(300);
    // The community's first admin has a pending invitation of its own: only Pak Udin's counts here.
    const pending = async () =>
      (
        await callJson<{ items: { name: string }[] }>("/api/members/invitations", { token: admin.token })
      ).body.items.filter((i) => i.name === "Pak Udin");
    expect(await pending()).toHaveLength(1);
    const account = await platformDb(bindings)
      .select()
      .from(users)
      .where(eq(users.whatsapp, phone.stored))
      .get();
    const userId = account?.id ?? "";
    const status = async () =>
      (await callJson<{ status: string }>(`/api/members/${userId}`, { token: admin.token })).body.status;
    expect(await status()).toBe("diundang");
    const code = (await issue(admin.token, userId)).body.code;
    const session = await redeem(code);
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ id: userId, roles: ["satpam"] });
    expect(await pending()).toEqual([]);
    // Signed in by the code, without a password: an active member, no longer "invited".
    expect(account?.passwordHash).toBeNull();
    expect(await status()).toBe("aktif");
  });

  it("lets a member who signs in by a code set a password, and one with a password change it with the current one", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const phone = nextPhone();
    await callJson("/api/members/invitations", {
      token: admin.token,
      body: { name: "Pak Udin", whatsapp: phone.typed, roles: ["satpam"] },
    });
    const account = await platformDb(bindings)
      .select()
      .from(users)
      .where(eq(users.whatsapp, phone.stored))
      .get();
    const session = await redeem((await issue(admin.token, account?.id ?? "")).body.code);
    const token = session.body.accessToken;
    const me = async () => (await callJson<{ hasPassword: boolean }>("/api/user/me", { token })).body;
    const setPassword = (body: Record<string, unknown>, as = token) =>
      callJson("/api/user/password", { token: as, body });
    expect(await me()).toMatchObject({ hasPassword: false });
    expectProblem(await setPassword({ newPassword: "pendek" }), 400, "password_too_short");
    expectProblem(await setPassword({}), 400, "invalid_input");
    expectProblem(
      await callJson("/api/user/password", { body: { newPassword: "sandi-udin-01" } }),
      401,
      "unauthorized",
    );
    expect((await setPassword({ newPassword: "sandi-udin-01" })).status).toBe(204);
    expect(await me()).toMatchObject({ hasPassword: true });
    const stored = await platformDb(bindings)
      .select()
      .from(users)
      .where(eq(users.id, account?.id ?? ""))
      .get();
    expect(stored?.passwordHash).not.toBeNull();
    // With a password, a change needs the current one; the other sessions end.
    const other = await redeem((await issue(admin.token, account?.id ?? "")).body.code);
    expectProblem(await setPassword({ newPassword: "sandi-udin-02" }), 400, "current_password_invalid");
    expectProblem(
      await setPassword({ newPassword: "sandi-udin-02", currentPassword: "salah-sekali" }),
      400,
      "current_password_invalid",
    );
    expect(
      (await setPassword({ newPassword: "sandi-udin-02", currentPassword: "sandi-udin-01" })).status,
    ).toBe(204);
    expectProblem(await callJson("/api/user/me", { token: other.body.accessToken }), 401, "session_revoked");
    expect((await me()).hasPassword).toBe(true);
    const audit = await platformDb(bindings)
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, account?.id ?? ""))
      .all();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["user.password_set", "user.password_change"]),
    );
    expect(JSON.stringify(audit)).not.toContain("sandi-udin");
  });
});

const pending = (token: string) =>
  callJson<{ items: { id: string; name: string; kind: string; channel: string | null; roles: string[] }[] }>(
    "/api/members/invitations?limit=100",
    { token },
  );
const revoke = (token: string, id: string) =>
  callJson(`/api/members/invitations/${id}`, { method: "DELETE", token });
async function lastLinkTo(recipient: string): Promise<string> {
  const message = (await queuedMessages({ recipient })).at(-1);
  return tokenIn(message ?? ({ payload: {} } as never));
}
const setContact = (token: string, id: string, body: Record<string, unknown>) =>
  callJson<{ invitation: { channel: string | null; sent: boolean; reason?: string } }>(
    `/api/members/invitations/${id}/contact`,
    { method: "PUT", token, body },
  );
const setPassword = (token: string, password: string) =>
  callJson("/api/auth/reset-password", { body: { token, password } });

describe("an invitation to someone without email (issue 45)", () => {
  it("inviting the same unverified number again reaches the invited account, never a second one", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const phone = nextPhone();
    expect(
      (await invite(admin.token, { name: "Pak Udin", whatsapp: phone.typed, roles: ["satpam"] })).status,
    ).toBe(202);
    const first = await lastLinkTo(phone.stored);
    const again = await invite(admin.token, {
      name: "Pak Udin",
      whatsapp: phone.typed,
      roles: ["satpam", "bendahara"],
    });
    expect(again.status).toBe(202);
    expect(again.body.invitation).toEqual({ channel: "whatsapp", sent: true });
    const accounts = await platformDb(bindings).select().from(users).where(eq(users.whatsapp, phone.stored));
    expect(accounts).toHaveLength(1);
    expect((await allMembers(admin.token)).filter((m) => m.whatsapp === phone.stored)).toEqual([
      expect.objectContaining({
        userId: accounts[0]?.id,
        roles: ["satpam", "bendahara"],
        status: "diundang",
      }),
    ]);
    expectProblem(await setPassword(first, "sandi-udin-01"), 410, "invitation_retired");
    expect((await setPassword(await lastLinkTo(phone.stored), "sandi-udin-01")).status).toBe(204);
    // Once he has signed in, he is a member like any other.
    expectProblem(
      await invite(admin.token, { name: "Pak Udin", whatsapp: phone.typed, roles: ["satpam"] }),
      409,
      "already_member",
    );
  });

  it("the admin adds a WhatsApp number to an email invitation and re-sends it there; the link proves that number only", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const phone = nextPhone();
    const email = `udin-${newId().toLowerCase()}@warga.test`;
    await invite(admin.token, { name: "Pak Udin", email, roles: ["satpam"] });
    const emailed = await lastLinkTo(email);
    const id = (await pending(admin.token)).body.items.find((i) => i.name === "Pak Udin")?.id ?? "";
    const res = await setContact(admin.token, id, { whatsapp: phone.typed });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ invitation: { channel: "whatsapp", sent: true } });
    expect((await pending(admin.token)).body.items.filter((i) => i.name === "Pak Udin")).toEqual([
      expect.objectContaining({ kind: "account", channel: "whatsapp", roles: ["satpam"] }),
    ]);
    expect(await auditTrail(admin.token, "action=member.invitation_contact")).toEqual([
      expect.objectContaining({ detail: { invitationId: id, channel: "whatsapp" } }),
    ]);
    expect(JSON.stringify(await auditTrail(admin.token, "action=member.invitation_contact"))).not.toContain(
      phone.stored,
    );
    expectProblem(await setPassword(emailed, "sandi-udin-01"), 410, "invitation_retired");
    expect((await setPassword(await lastLinkTo(phone.stored), "sandi-udin-01")).status).toBe(204);
    const account = await platformDb(bindings).select().from(users).where(eq(users.email, email)).get();
    expect(account).toMatchObject({ whatsapp: phone.stored, emailVerifiedAt: null });
    expect(account?.whatsappVerifiedAt).not.toBeNull();
    // Accepted: nothing more to add to it.
    expectProblem(await setContact(admin.token, id, { email: `x-${email}` }), 409, "invitation_not_pending");
  });

  it("stores the contact unverified and refuses bad input, others' contacts, join links, used links and other communities", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const admin = await tenant.member("admin");
    const sek = await tenant.member("sekretaris");
    const otherAdmin = await other.member("admin");
    const phone = nextPhone();
    await invite(admin.token, { name: "Bu Siti", whatsapp: phone.typed, roles: ["sekretaris"] });
    const id = (await pending(admin.token)).body.items.find((i) => i.name === "Bu Siti")?.id ?? "";
    expectProblem(await setContact(admin.token, id, {}), 400, "invalid_input");
    expectProblem(
      await setContact(admin.token, id, { email: "siti@warga.test", whatsapp: phone.typed }),
      400,
      "invalid_input",
    );
    expectProblem(await setContact(admin.token, id, { whatsapp: "021-555-1234" }), 400, "invalid_input");
    expectProblem(await setContact(admin.token, newId(), { whatsapp: phone.typed }), 404, "not_found");
    expectProblem(await setContact(otherAdmin.token, id, { whatsapp: phone.typed }), 404, "not_found");
    expectProblem(await setContact(sek.token, id, { whatsapp: phone.typed }), 403, "forbidden_role");
    // A number another account has proven, an email another account has.
    const verified = nextPhone();
    const holder = await insertUser({ name: "Pemilik Nomor" });
    await platformDb(bindings)
      .update(users)
      .set({ whatsapp: verified.stored, whatsappVerifiedAt: new Date().toISOString() })
      .where(eq(users.id, holder.id));
    expectProblem(await setContact(admin.token, id, { whatsapp: verified.typed }), 409, "whatsapp_taken");
    expectProblem(await setContact(admin.token, id, { email: holder.email }), 409, "account_conflict");
    // A number only claimed elsewhere is stored, unverified, and the link goes there.
    const claimed = nextPhone();
    const claimer = await insertUser({ name: "Pengklaim" });
    await platformDb(bindings)
      .update(users)
      .set({ whatsapp: claimed.stored })
      .where(eq(users.id, claimer.id));
    expect((await setContact(admin.token, id, { whatsapp: claimed.typed })).body.invitation).toEqual({
      channel: "whatsapp",
      sent: true,
    });
    const siti = await platformDb(bindings).select().from(users).where(eq(users.name, "Bu Siti")).all();
    expect(siti.filter((u) => u.whatsapp === claimed.stored)).toEqual([
      expect.objectContaining({ whatsappVerifiedAt: null }),
    ]);
    // A join link's contacts are its holder's; a revoked invitation is no longer pending.
    const existing = await insertUser({ name: "Bu Ani" });
    await invite(admin.token, { name: "Ani", email: existing.email, roles: ["bendahara"] });
    const joinId = (await pending(admin.token)).body.items.find((i) => i.name === "Ani")?.id ?? "";
    expectProblem(
      await setContact(admin.token, joinId, { whatsapp: phone.typed }),
      409,
      "invitation_is_join",
    );
    const newest = (await pending(admin.token)).body.items.find((i) => i.name === "Bu Siti")?.id ?? "";
    expect((await revoke(admin.token, newest)).status).toBe(204);
    expectProblem(
      await setContact(admin.token, newest, { whatsapp: phone.typed }),
      409,
      "invitation_not_pending",
    );
  });
});
