import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships, oneTimeTokens, users } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { newId } from "../../../src/core/ids";
import { deliverInvitation } from "../../../src/modules/identity/invitations";
import {
  createResidentAccount,
  inviteResident,
  isAccountConflict,
  userContact,
  userNames,
} from "../../../src/modules/identity/service";
import { memberCtx } from "../../helpers/contexts";
import { bindings, createTenant, insertUser, unique } from "../../helpers/harness";

let phone = 0;
const nextPhone = () => `62813${Date.now().toString().slice(-5)}${String(++phone).padStart(2, "0")}`;

async function staffCtx() {
  const tenant = await createTenant();
  const sek = await tenant.member("sekretaris");
  return { tenant, ctx: await memberCtx(tenant.slug, sek, "sekretaris") };
}

describe("createResidentAccount", () => {
  it("prepares a new account, its membership and an invitation, and writes nothing itself", async () => {
    const { tenant, ctx } = await staffCtx();
    const whatsapp = nextPhone();
    const account = await createResidentAccount({
      ctx,
      input: { fullName: "Ibu Sari", email: null, whatsapp, unitId: "unit-1" },
    });
    const userId = account.userId ?? "";
    expect(userId).not.toBe("");
    const db = platformDb(bindings);
    expect(await db.select().from(users).where(eq(users.id, userId))).toEqual([]);

    await ctx.platform.batch(account.statements);
    const user = await db.select().from(users).where(eq(users.id, userId)).get();
    expect(user).toMatchObject({ name: "Ibu Sari", whatsapp, passwordHash: null });
    const member = await db
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.tenantId, tenant.id)))
      .get();
    expect(member).toMatchObject({ roles: [], unitId: "unit-1" });
    const tokens = await db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, userId));
    expect(tokens.map((t) => t.purpose)).toEqual(["invitation"]);
    expect(await account.send()).toEqual({ channel: "whatsapp", sent: true });
  });

  it("links no existing account: its holder (the number's, when two match) gets a join token", async () => {
    const { tenant, ctx } = await staffCtx();
    const byEmail = await insertUser({});
    const whatsapp = nextPhone();
    const byNumber = await insertUser({ whatsapp });
    const account = await createResidentAccount({
      ctx,
      input: { fullName: "Budi", email: byEmail.email, whatsapp, unitId: "unit-2" },
    });
    expect(account.userId).toBeNull();
    await ctx.platform.batch(account.statements);
    const db = platformDb(bindings);
    const members = await db.select().from(memberships).where(eq(memberships.tenantId, tenant.id));
    expect(members.map((m) => m.userId)).not.toContain(byNumber.id);
    expect(members.map((m) => m.userId)).not.toContain(byEmail.id);
    const joins = await db
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.purpose, "join"), eq(oneTimeTokens.userId, byNumber.id)));
    expect(joins.map((t) => t.data)).toEqual([
      {
        tenantId: tenant.id,
        unitId: "unit-2",
        roles: [],
        // The person as the application named them, for the pending-invitations list (issue 44).
        invitee: { name: "Budi", email: byEmail.email, whatsapp },
      },
    ]);
    expect(joins.map((t) => t.tenantId)).toEqual([tenant.id]);
    // The application named an email: the answer says email whichever account was asked.
    expect(await account.send()).toEqual({ channel: "email", sent: true });
  });

  it("tells a batch that lost a race for the email from any other failure", async () => {
    const { tenant, ctx } = await staffCtx();
    const email = `${unique("joko")}@warga.test`;
    const account = await createResidentAccount({
      ctx,
      input: { fullName: "Pak Joko", email, whatsapp: nextPhone(), unitId: "unit-3" },
    });
    // Someone else takes the email between the check and the batch. (A number is no such race since
    // issue 44: a new account holds it unproven, which any number of accounts may.)
    await insertUser({ email });
    const failure = await ctx.platform.batch(account.statements).catch((e) => e);
    expect(isAccountConflict(failure)).toBe(true);
    expect(isAccountConflict(new Error("D1_ERROR: no such table: users"))).toBe(false);
    const members = await platformDb(bindings)
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, account.userId ?? ""), eq(memberships.tenantId, tenant.id)));
    expect(members).toEqual([]);
  });
});

describe("inviteResident", () => {
  it("answers 404 for someone who is not a resident here, and 409 for a resident with no contact", async () => {
    const { tenant, ctx } = await staffCtx();
    const staff = await tenant.member("bendahara");
    await expect(inviteResident({ ctx, id: staff.id })).rejects.toMatchObject({ code: "not_found" });

    const silent = newId();
    const db = platformDb(bindings);
    await db.insert(users).values({
      id: silent,
      name: "Tanpa Kontak",
      email: null,
      whatsapp: null,
      updatedAt: new Date().toISOString(),
    });
    await db.insert(memberships).values({ id: newId(), userId: silent, tenantId: tenant.id, roles: [] });
    await expect(inviteResident({ ctx, id: silent })).rejects.toMatchObject({ code: "no_contact" });
  });
});

describe("user lookups", () => {
  it("names users and gives their contact, leaving unknown ids out", async () => {
    const { ctx } = await staffCtx();
    const whatsapp = nextPhone();
    const a = await insertUser({ name: "Ani", whatsapp });
    const b = await insertUser({ name: "Bayu", email: `${unique("bayu")}@warga.test` });
    const names = await userNames({ ctx, ids: [a.id, b.id, a.id, "01HZZZZZZZZZZZZZZZZZZZZZZZ"] });
    expect(Object.fromEntries(names)).toEqual({ [a.id]: "Ani", [b.id]: "Bayu" });
    expect(await userContact({ ctx, id: a.id })).toEqual({ id: a.id, name: "Ani", email: a.email, whatsapp });
    expect(await userContact({ ctx, id: "01HZZZZZZZZZZZZZZZZZZZZZZZ" })).toBeNull();
  });
});

describe("an invitation that could not be sent (issue 45)", () => {
  it("says why and what to do: no contact, or the notification service failed", async () => {
    const { ctx } = await staffCtx();
    const target = { name: "Pak Udin", email: null, whatsapp: null };
    const none = await deliverInvitation(ctx, { target, token: "t", idempotencyKey: unique("inv") });
    expect(none).toMatchObject({ channel: null, sent: false, reason: "no_contact" });
    expect(none.hint).toContain("kode masuk");
    const down = {
      ...ctx,
      env: {
        ...ctx.env,
        NOTIFY: {
          fetch: () => Promise.reject(new Error("notify down")),
        } as unknown as typeof ctx.env.NOTIFY,
      },
    };
    const failed = await deliverInvitation(down, {
      target: { ...target, whatsapp: nextPhone() },
      token: "t",
      idempotencyKey: unique("inv"),
    });
    expect(failed).toMatchObject({ channel: "whatsapp", sent: false, reason: "delivery_failed" });
    expect(failed.hint).toContain("Kirim ulang");
  });
});
