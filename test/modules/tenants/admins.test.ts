import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships, users } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { newId } from "../../../src/core/ids";
import {
  bindings,
  callJson,
  createTenant,
  expectProblem,
  insertUser,
  operatorToken,
  PASSWORD,
  unique,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { tokenIn } from "../identity/helpers";

/** Issue 27, item 1: a community starts with its first admin, and the operator can invite more. */

interface Created {
  id: string;
  slug: string;
  status: string;
  adminInvitation: { channel: string | null; sent: boolean };
}

let phone = 0;
const nextPhone = () => `0813${Date.now().toString().slice(-5)}${String(++phone).padStart(3, "0")}`;
const asStored = (local: string) => `62${local.slice(1)}`;

async function create(admin: Record<string, unknown> | undefined, type: "RT" | "RW" = "RT") {
  return callJson<Created>("/api/platform/tenants", {
    token: await operatorToken(),
    body: { slug: unique("rt-ketua"), name: "RT Ketua", type, ...(admin ? { admin } : {}) },
  });
}

async function inviteAdmin(tenantId: string, body: Record<string, unknown>) {
  return callJson<{ channel: string | null; sent: boolean }>(
    `/api/platform/tenants/${tenantId}/admin-invitations`,
    { token: await operatorToken(), body },
  );
}

async function membershipOf(userId: string, tenantId: string) {
  return platformDb(bindings)
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.tenantId, tenantId)))
    .get();
}

async function userByEmail(email: string) {
  return platformDb(bindings).select().from(users).where(eq(users.email, email)).get();
}

/** The newest link sent to `recipient`, spent to set a password. */
async function setPasswordFromLink(recipient: string, password = "sandi-ketua-2026") {
  const message = (await queuedMessages({ recipient })).at(-1);
  expect(message, `a message to ${recipient}`).toBeDefined();
  const token = tokenIn(message ?? ({ payload: {} } as never));
  return { token, res: await callJson("/api/auth/reset-password", { body: { token, password } }) };
}

async function signIn(identifier: { email?: string; whatsapp?: string }, password: string, tenant: string) {
  return callJson<{ accessToken: string; user: { roles: string[]; resident: boolean } }>("/api/auth/login", {
    body: { ...identifier, password, tenant },
  });
}

describe("the first admin at creation", () => {
  it("creates a new account with a set-password link; the answer carries no token", async () => {
    const email = `${unique("ketua-baru")}@warga.test`;
    const res = await create({ name: "Pak Ketua", email });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "active", adminInvitation: { channel: "email", sent: true } });

    const [welcome] = await queuedMessages({ recipient: email });
    expect(welcome).toMatchObject({ channel: "email", template: "WELCOME" });
    const { token, res: set } = await setPasswordFromLink(email);
    expect(JSON.stringify(res.body)).not.toContain(token);
    expect(set.status).toBe(204);
    const session = await signIn({ email }, "sandi-ketua-2026", res.body.slug);
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ roles: ["admin"], resident: false });
    // The new admin runs the committee at once: the admin-only audit read opens for them.
    const own = await callJson("/api/audit", { token: session.body.accessToken });
    expect(own.status).toBe(200);
  });

  it("invites over WhatsApp when the admin has no email", async () => {
    const whatsapp = nextPhone();
    const res = await create({ name: "Bu Ketua", whatsapp });
    expect(res.status).toBe(201);
    expect(res.body.adminInvitation).toEqual({ channel: "whatsapp", sent: true });
    const [message] = await queuedMessages({ recipient: asStored(whatsapp) });
    expect(message?.channel).toBe("whatsapp");
    expect(JSON.stringify(message?.payload)).toContain("reset-password?token=");
  });

  it("sends an existing account a join link: not a member until it accepts, and the answer looks the same", async () => {
    const holder = await insertUser({ name: "Pemilik Akun" });
    const res = await create({ name: "Nama Diketik Operator", email: holder.email });
    expect(res.status).toBe(201);
    expect(res.body.adminInvitation).toEqual({ channel: "email", sent: true });
    expect(await membershipOf(holder.id, res.body.id)).toBeUndefined();
    const account = await userByEmail(holder.email);
    expect(account?.name).toBe("Pemilik Akun");

    const [link] = await queuedMessages({ recipient: holder.email });
    expect(JSON.stringify(link?.payload)).toContain("/join?token=");
    expectProblem(
      await callJson("/api/auth/login", {
        body: { email: holder.email, password: PASSWORD, tenant: res.body.slug },
      }),
      403,
      "no_membership",
    );
    const accepted = await callJson("/api/auth/join/accept", {
      body: { token: tokenIn(link ?? ({ payload: {} } as never)) },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ roles: ["admin"], resident: false });
    expect((await membershipOf(holder.id, res.body.id))?.roles).toEqual(["admin"]);
    const session = await signIn({ email: holder.email }, PASSWORD, res.body.slug);
    expect(session.body.user.roles).toEqual(["admin"]);
  });

  it("refuses a creation without an admin, or an admin without a contact, with a field error", async () => {
    const none = await create(undefined);
    expectProblem(none, 400, "invalid_input");
    expect(JSON.stringify(none.body)).toContain('"field":"admin"');
    const noContact = await create({ name: "Tanpa Kontak" });
    expectProblem(noContact, 400, "invalid_input");
    expect((noContact.body as unknown as { errors: { field: string }[] }).errors).toContainEqual(
      expect.objectContaining({ field: "admin.email" }),
    );
    const badNumber = await create({ name: "Nomor Salah", whatsapp: "12345" });
    expectProblem(badNumber, 400, "invalid_input");
  });
});

describe("POST /api/platform/tenants/:id/admin-invitations", () => {
  it("invites another admin; the community counts each admin once they have signed in (issue 44, P7)", async () => {
    const tenant = await createTenant();
    const email = `${unique("wakil")}@warga.test`;
    const res = await inviteAdmin(tenant.id, { name: "Wakil Ketua", email });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ channel: "email", sent: true });
    expect((await setPasswordFromLink(email)).res.status).toBe(204);
    const session = await signIn({ email }, "sandi-ketua-2026", tenant.slug);
    expect(session.body.user.roles).toEqual(["admin"]);
    const list = await callJson<{ items: { id: string; adminCount: number }[] }>(
      "/api/platform/tenants?limit=100",
      { token: await operatorToken() },
    );
    const count = async () =>
      (
        await callJson<{ items: { id: string; adminCount: number }[] }>("/api/platform/tenants?limit=100", {
          token: await operatorToken(),
        })
      ).body.items.find((t) => t.id === tenant.id)?.adminCount;
    // The admin invited at creation never set a password: not counted until they do.
    expect(list.body.items.find((t) => t.id === tenant.id)?.adminCount).toBe(1);
    expect((await setPasswordFromLink(tenant.invitedAdmin.email)).res.status).toBe(204);
    expect(await count()).toBe(2);
  });

  it("re-sends a fresh set-password link to an admin who never set one; the old link stops working", async () => {
    const tenant = await createTenant();
    const email = tenant.invitedAdmin.email;
    const [first] = await queuedMessages({ recipient: email });
    const oldToken = tokenIn(first ?? ({ payload: {} } as never));
    const res = await inviteAdmin(tenant.id, { name: "Ketua Undangan", email });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ channel: "email", sent: true });
    const messages = await queuedMessages({ recipient: email });
    expect(messages).toHaveLength(2);
    const stale = await callJson("/api/auth/reset-password", {
      body: { token: oldToken, password: "sandi-lama-1" },
    });
    expect(stale.status).not.toBe(204);
    expect((await setPasswordFromLink(email)).res.status).toBe(204);
    expect((await signIn({ email }, "sandi-ketua-2026", tenant.slug)).body.user.roles).toEqual(["admin"]);
    // Now that they sign in, there is nothing to send.
    expectProblem(await inviteAdmin(tenant.id, { name: "Ketua", email }), 409, "already_member");
  });

  it("names the channel a re-sent link really took, not the one the operator's input implies (issue 45)", async () => {
    const whatsapp = nextPhone();
    const created = await create({ name: "Pak Udin", whatsapp });
    const account = await platformDb(bindings)
      .update(users)
      .set({ whatsappVerifiedAt: new Date().toISOString() })
      .where(eq(users.whatsapp, asStored(whatsapp)))
      .returning({ id: users.id })
      .get();
    expect(account).toBeDefined();
    const res = await inviteAdmin(created.body.id, {
      name: "Pak Udin",
      email: `${unique("udin")}@warga.test`,
      whatsapp,
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ channel: "whatsapp", sent: true });
    expect(await queuedMessages({ recipient: asStored(whatsapp) })).toHaveLength(2);
  });

  it("gives the admin duty to a member who already signs in, and tells them", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga", { unitId: "unit-rumah" });
    const res = await inviteAdmin(tenant.id, { name: "Warga Jadi Ketua", email: warga.email });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ channel: "email", sent: true });
    expect((await membershipOf(warga.id, tenant.id))?.roles).toEqual(["admin"]);
    const [told] = await queuedMessages({ recipient: warga.email });
    expect(told?.template).toBe("WELCOME");
    expect(JSON.stringify(told?.payload)).not.toContain("token=");
    // Still a resident (they have a house), now with the duty.
    const session = await signIn({ email: warga.email }, PASSWORD, tenant.slug);
    expect(session.body.user).toMatchObject({ roles: ["admin"], resident: true });
    const trail = await callJson<{ items: { action: string; detail: unknown }[] }>(
      `/api/platform/audit?tenant=${tenant.slug}&action=tenant.admin_invite`,
      { token: await operatorToken() },
    );
    expect(trail.body.items.map((e) => e.detail)).toEqual([{ outcome: "duty_added" }]);
  });

  it("sends an account of another community a join link, never a membership", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const officer = await other.member("sekretaris");
    const res = await inviteAdmin(tenant.id, { name: "Sekretaris Tetangga", email: officer.email });
    expect(res.status).toBe(202);
    expect(await membershipOf(officer.id, tenant.id)).toBeUndefined();
    const [link] = await queuedMessages({ recipient: officer.email });
    expect(JSON.stringify(link?.payload)).toContain("/join?token=");
  });

  it("answers 404 for an unknown tenant and 400 without a contact; it is for operators only", async () => {
    expectProblem(
      await inviteAdmin(newId(), { name: "Siapa", email: `${unique("x")}@warga.test` }),
      404,
      "tenant_not_found",
    );
    const tenant = await createTenant();
    const bad = await inviteAdmin(tenant.id, { name: "Tanpa Kontak" });
    expectProblem(bad, 400, "invalid_input");
    expect((bad.body as unknown as { errors: { field: string }[] }).errors).toContainEqual(
      expect.objectContaining({ field: "email" }),
    );
    const admin = await tenant.member("admin");
    expectProblem(
      await callJson(`/api/platform/tenants/${tenant.id}/admin-invitations`, {
        token: admin.token,
        body: { name: "Diri Sendiri", email: `${unique("y")}@warga.test` },
      }),
      403,
      "forbidden_role",
    );
  });
});

describe("admins on the operator's views", () => {
  it("counts each tenant's admins in the list, and platform health lists the communities with none", async () => {
    const token = await operatorToken();
    const staffed = await createTenant();
    await staffed.member("admin");
    const holder = await insertUser({});
    const pending = await create({ name: "Belum Menerima", email: holder.email }, "RW");
    expect(pending.status).toBe(201);
    const disabledAdmin = await createTenant();
    await platformDb(bindings)
      .update(users)
      .set({ status: "disabled" })
      .where(eq(users.email, disabledAdmin.invitedAdmin.email));

    const counts = async () => {
      const list = await callJson<{ items: { id: string; adminCount: number }[] }>(
        "/api/platform/tenants?limit=100",
        { token },
      );
      expect(list.status).toBe(200);
      return new Map(list.body.items.map((t) => [t.id, t.adminCount]));
    };
    const before = await counts();
    // The member who signs in counts; the admin invited at creation who never did does not (issue 44, P7).
    expect(before.get(staffed.id)).toBe(1);
    expect(before.get(pending.body.id)).toBe(0);
    expect(before.get(disabledAdmin.id)).toBe(0);
    const health = await callJson<{ tenantsWithoutAdmin: { slug: string }[] }>("/api/platform/health", {
      token,
    });
    const orphans = health.body.tenantsWithoutAdmin.map((t) => t.slug);
    expect(orphans).toContain(pending.body.slug);
    expect(orphans).toContain(disabledAdmin.slug);
    expect(orphans).not.toContain(staffed.slug);

    const [link] = await queuedMessages({ recipient: holder.email });
    await callJson("/api/auth/join/accept", { body: { token: tokenIn(link ?? ({ payload: {} } as never)) } });
    expect((await counts()).get(pending.body.id)).toBe(1);
    const after = await callJson<{ tenantsWithoutAdmin: { slug: string }[] }>("/api/platform/health", {
      token,
    });
    expect(after.body.tenantsWithoutAdmin.map((t) => t.slug)).not.toContain(pending.body.slug);
  });
});
