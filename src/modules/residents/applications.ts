import { and, desc, eq, lt, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { auditInsert } from "../../core/audit";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { memberships, residentApplications, users } from "../../core/db/platform-schema";
import { Conflict, Forbidden, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { applicationRateLimit as rateLimit } from "./limits";
import { findTenantBySlug } from "../../core/tenancy";
import { deliverInvitation } from "../identity/invitations";
import { newOneTimeToken } from "../identity/oneTimeTokens";
import { normaliseBlock, normaliseHouseNumber } from "../../core/schemas";
import { findOrCreateUnit } from "../kependudukan/service";
import type { ApplicationInput, ApplicationListQuery, DecisionInput } from "./schemas";

type ApplicationRow = typeof residentApplications.$inferSelect;

export function presentApplication(row: ApplicationRow) {
  return {
    id: row.id,
    fullName: row.fullName,
    email: row.email,
    whatsapp: row.whatsapp,
    block: row.block,
    houseNumber: row.houseNumber,
    kkNumber: row.kkNumber,
    note: row.note,
    status: row.status,
    reason: row.reason,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt,
    userId: row.userId,
    createdAt: row.createdAt,
  };
}

/**
 * The public form. The answer is the same whatever happens behind it (new application, a duplicate of
 * one still waiting, or a bot caught by the honeypot), so the form reveals nothing about who applied.
 */
export async function submitApplication({
  ctx,
  slug,
  input,
}: {
  ctx: PlatformCtx;
  slug: string;
  input: ApplicationInput;
}) {
  await rateLimit(ctx.env, [
    { policy: "application:ip", subject: ctx.ip },
    { policy: "application:subject", subject: input.email ?? input.whatsapp },
  ]);
  const db = platformDb(ctx.env);
  const tenant = await findTenantBySlug(db, slug);
  if (!tenant || tenant.status === "provisioning") {
    throw new NotFound("Tenant", "tenant_not_found");
  }
  if (tenant.status === "suspended") {
    throw new Forbidden("tenant_suspended", "This community's account is suspended.");
  }
  if (!tenant.flags.warga) {
    throw new Forbidden("feature_disabled", "The warga module is switched off for this community.");
  }
  if (input.website) {
    return { status: "menunggu" as const };
  }
  const block = normaliseBlock(input.block);
  const number = normaliseHouseNumber(input.houseNumber);
  const pending = await db
    .select({ id: residentApplications.id })
    .from(residentApplications)
    .where(
      and(
        eq(residentApplications.tenantId, tenant.id),
        eq(residentApplications.whatsapp, input.whatsapp),
        eq(residentApplications.status, "menunggu"),
      ),
    )
    .get();
  if (!pending) {
    await db.insert(residentApplications).values({
      id: newId(),
      tenantId: tenant.id,
      fullName: input.fullName,
      email: input.email ?? null,
      whatsapp: input.whatsapp,
      block,
      houseNumber: number,
      kkNumber: input.kkNumber ?? null,
      note: input.note ?? null,
      status: "menunggu",
      ip: ctx.ip,
      updatedAt: new Date().toISOString(),
    });
  }
  return { status: "menunggu" as const };
}

export async function listApplications({ ctx, input }: { ctx: TenantCtx; input: ApplicationListQuery }) {
  const filters: SQL[] = [eq(residentApplications.tenantId, ctx.tenant.id)];
  if (input.status) {
    filters.push(eq(residentApplications.status, input.status));
  }
  if (input.cursor) {
    filters.push(lt(residentApplications.id, input.cursor));
  }
  const rows = await platformDb(ctx.env)
    .select()
    .from(residentApplications)
    .where(and(...filters))
    .orderBy(desc(residentApplications.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return {
    items: page.map(presentApplication),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

function staffId(ctx: TenantCtx): string {
  if (ctx.actor.kind !== "user") {
    throw new Error("deciding an application needs a signed-in staff member");
  }
  return ctx.actor.userId;
}

/**
 * The first statement of a decision batch sets `decision_id` only if the application is still
 * `menunggu`; this one then fails the whole batch (D1 runs a batch as one transaction) unless that
 * decision is ours. Of two staff deciding at once, one wins; the other's account, membership and audit
 * rows never exist. `json()` of a text that is not JSON is how a query raises an error in SQLite.
 */
function abortUnlessDecided(ctx: TenantCtx, id: string, decisionId: string): BatchItem<"sqlite"> {
  return platformDb(ctx.env)
    .select({
      guard: sql`json(CASE WHEN ${residentApplications.decisionId} = ${decisionId} THEN '1' ELSE 'application_already_decided' END)`,
    })
    .from(residentApplications)
    .where(eq(residentApplications.id, id));
}

const alreadyDecided = () => new Conflict("invalid_transition", "This application has already been decided.");

export async function decideApplication({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: DecisionInput;
}) {
  const db = platformDb(ctx.env);
  const application = await db
    .select()
    .from(residentApplications)
    .where(and(eq(residentApplications.id, id), eq(residentApplications.tenantId, ctx.tenant.id)))
    .get();
  if (!application) {
    throw new NotFound("Application");
  }
  if (application.status !== "menunggu") {
    throw alreadyDecided();
  }
  const decisionId = newId();
  const now = new Date().toISOString();
  const decide = (userId: string | null): BatchItem<"sqlite"> =>
    db
      .update(residentApplications)
      .set({
        status: input.status,
        reason: input.reason ?? null,
        decisionId,
        decidedBy: staffId(ctx),
        decidedAt: now,
        userId,
        updatedAt: now,
      })
      .where(and(eq(residentApplications.id, id), eq(residentApplications.status, "menunggu")));
  const audit = (action: string, detail: Record<string, unknown>): BatchItem<"sqlite"> =>
    auditInsert(db, ctx, {
      tenantId: ctx.tenant.id,
      action,
      targetType: "application",
      targetId: id,
      detail,
    });

  if (input.status === "ditolak") {
    try {
      await db.batch([
        decide(null),
        abortUnlessDecided(ctx, id, decisionId),
        audit("application.reject", { reason: input.reason ?? null }),
      ]);
    } catch (error) {
      throw String(error).includes("malformed JSON") ? alreadyDecided() : error;
    }
    return { application: await reload(ctx, id), invitation: null };
  }
  return approve(ctx, application, decide, audit, decisionId);
}

async function reload(ctx: TenantCtx, id: string) {
  const row = await platformDb(ctx.env)
    .select()
    .from(residentApplications)
    .where(eq(residentApplications.id, id))
    .get();
  if (!row) {
    throw new NotFound("Application");
  }
  return presentApplication(row);
}

/**
 * Approval makes the resident: the unit (tenant database, idempotent, so it may safely come first),
 * then in one platform batch the decision, the account (or the existing account of the same person,
 * who may already live or serve elsewhere), the membership, a set-password invitation and the audit.
 */
async function approve(
  ctx: TenantCtx,
  application: ApplicationRow,
  decide: (userId: string | null) => BatchItem<"sqlite">,
  audit: (action: string, detail: Record<string, unknown>) => BatchItem<"sqlite">,
  decisionId: string,
) {
  const db = platformDb(ctx.env);
  const unit = await findOrCreateUnit({
    ctx,
    input: { block: application.block, number: application.houseNumber },
  });
  const matches = await db
    .select()
    .from(users)
    .where(
      application.email
        ? or(eq(users.email, application.email), eq(users.whatsapp, application.whatsapp))
        : eq(users.whatsapp, application.whatsapp),
    );
  if (matches.length > 1) {
    throw new Conflict(
      "account_conflict",
      "The email and the WhatsApp number of this application belong to two different accounts.",
    );
  }
  const existing = matches[0];
  if (existing) {
    const member = await db
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.userId, existing.id), eq(memberships.tenantId, ctx.tenant.id)))
      .get();
    if (member) {
      throw new Conflict("already_member", "This person already has an account in this community.");
    }
  }
  const userId = existing?.id ?? newId();
  const now = new Date().toISOString();
  // Someone who already has a password (a resident elsewhere, staff of the RW) gets a sign-in link.
  const invitation = existing?.passwordHash
    ? null
    : await newOneTimeToken(db, { purpose: "invitation", userId });
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    decide(userId),
    abortUnlessDecided(ctx, application.id, decisionId),
    ...(existing
      ? []
      : [
          db.insert(users).values({
            id: userId,
            email: application.email,
            name: application.fullName,
            whatsapp: application.whatsapp,
            passwordHash: null,
            updatedAt: now,
          }),
        ]),
    db.insert(memberships).values({
      id: newId(),
      userId,
      tenantId: ctx.tenant.id,
      role: "warga",
      unitId: unit.id,
    }),
    ...(invitation ? [invitation.insert] : []),
    audit("application.approve", { userId, unitId: unit.id, newAccount: !existing }),
  ];
  try {
    await db.batch(statements);
  } catch (error) {
    const message = String(error);
    if (message.includes("malformed JSON")) {
      throw alreadyDecided();
    }
    if (message.includes("UNIQUE constraint failed")) {
      throw new Conflict("account_conflict", "An account with this email or number was created meanwhile.");
    }
    throw error;
  }
  const target = existing ?? {
    name: application.fullName,
    email: application.email,
    whatsapp: application.whatsapp,
  };
  const sent = await deliverInvitation(ctx.env, {
    target,
    tenantName: ctx.tenant.name,
    token: invitation?.token ?? null,
    idempotencyKey: `application-approved:${application.id}`,
    requestId: ctx.requestId,
  });
  return { application: await reload(ctx, application.id), invitation: sent };
}
