import { and, desc, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { residentApplications } from "../../core/db/platform-schema";
import { rowById } from "../../core/db/rows";
import { Conflict, InvalidTransition, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { normaliseBlock, normaliseHouseNumber } from "../../core/schemas";
import { createResidentAccount, isAccountConflict, isPersonTaken, personTaken } from "../identity/service";
import { findOrCreateUnit, personById, unitsByIds } from "../kependudukan/service";
import { applicationRateLimit as rateLimit } from "./limits";
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
 * The public form (the route's tenant context comes from the slug in its URL). The answer is the same
 * whatever happens behind it (new application, a duplicate of one still waiting, or a bot caught by
 * the honeypot), so the form reveals nothing about who applied.
 */
export async function submitApplication({ ctx, input }: { ctx: TenantCtx; input: ApplicationInput }) {
  await rateLimit(ctx.env, [
    { policy: "application:ip", subject: ctx.ip },
    { policy: "application:subject", subject: input.email ?? input.whatsapp },
  ]);
  const { tenant } = ctx;
  if (input.website) {
    return { status: "menunggu" as const };
  }
  const pending = await ctx.platform
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
    await ctx.platform.insert(residentApplications).values({
      id: newId(),
      tenantId: tenant.id,
      fullName: input.fullName,
      email: input.email ?? null,
      whatsapp: input.whatsapp,
      block: input.block,
      houseNumber: input.houseNumber,
      kkNumber: input.kkNumber ?? null,
      note: input.note ?? null,
      status: "menunggu",
      ip: ctx.ip,
      updatedAt: ctx.now().toISOString(),
    });
  }
  return { status: "menunggu" as const };
}

export async function listApplications({ ctx, input }: { ctx: TenantCtx; input: ApplicationListQuery }) {
  const rows = await ctx.platform
    .select()
    .from(residentApplications)
    .where(
      and(
        eq(residentApplications.tenantId, ctx.tenant.id),
        ...(input.status ? [eq(residentApplications.status, input.status)] : []),
        ...afterCursor(residentApplications.id, input.cursor, "desc"),
      ),
    )
    .orderBy(desc(residentApplications.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return { items: page.items.map(presentApplication), nextCursor: page.nextCursor };
}

type ApplicationStatus = ApplicationRow["status"];

/** An application is decided once: `menunggu → disetujui | ditolak`, then final. */
const APPLICATION_NEXT: Record<ApplicationStatus, ApplicationStatus[]> = {
  menunggu: ["disetujui", "ditolak"],
  disetujui: [],
  ditolak: [],
};

/**
 * Another decision is stored: `status` when read, else the loser of a race on `status = 'menunggu'`,
 * which found a decision (and from either decision the table allows nothing).
 */
const alreadyDecided = (status: Exclude<ApplicationStatus, "menunggu"> = "disetujui") =>
  new InvalidTransition("This application has already been decided.", APPLICATION_NEXT[status]);

/**
 * The person staff picked as the applicant's own: a person on an active family card of this tenant's
 * registry (404 `person_not_found` otherwise, another tenant's id included) registered at the house the
 * application names (409 `person_not_at_unit`: a card elsewhere is someone else's household, or the
 * application names the wrong house; staff correct the registry or ask the applicant to apply again).
 */
async function applicantPerson(ctx: TenantCtx, application: ApplicationRow, personId: string) {
  const person = await personById({ ctx, id: personId });
  if (!person) {
    throw new NotFound("Person", "person_not_found");
  }
  const unit = (await unitsByIds({ ctx, ids: [person.unitId] })).get(person.unitId);
  if (
    unit?.block !== normaliseBlock(application.block) ||
    unit.number !== normaliseHouseNumber(application.houseNumber)
  ) {
    throw new Conflict(
      "person_not_at_unit",
      `This person's family card is not registered at ${application.block} ${application.houseNumber}, the house of this application.`,
    );
  }
  return person;
}

/**
 * A decision is one platform batch: the status change (only while `menunggu`), a guard that aborts the
 * batch unless this decision is the one stored, then the account rows and the audit. Of two staff
 * deciding at once one wins; the other's account, membership and audit rows never exist.
 */
export async function decideApplication({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: DecisionInput;
}) {
  const staff = requireUser(ctx);
  const application = await ctx.platform
    .select()
    .from(residentApplications)
    .where(and(eq(residentApplications.id, id), eq(residentApplications.tenantId, ctx.tenant.id)))
    .get();
  if (!application) {
    throw new NotFound("Application");
  }
  if (application.status !== "menunggu") {
    throw alreadyDecided(application.status);
  }
  const decisionId = newId();
  const now = ctx.now().toISOString();
  const decide = (userId: string | null): [BatchItem<"sqlite">, BatchItem<"sqlite">] => [
    ctx.platform
      .update(residentApplications)
      .set({
        status: input.status,
        reason: input.reason ?? null,
        decisionId,
        decidedBy: staff.userId,
        decidedAt: now,
        userId,
        updatedAt: now,
      })
      .where(and(eq(residentApplications.id, id), eq(residentApplications.status, "menunggu"))),
    abortBatchUnless(ctx.platform, residentApplications, id, eq(residentApplications.decisionId, decisionId)),
  ];
  const audit = (action: string, detail: Record<string, unknown>) =>
    platformAudit(ctx, { action, targetType: "application", targetId: id, detail });

  if (input.status === "ditolak") {
    try {
      await ctx.platform.batch([
        ...decide(null),
        audit("application.reject", { reason: input.reason ?? null }),
      ]);
    } catch (error) {
      throw isBatchAborted(error) ? alreadyDecided() : error;
    }
    return { application: await reload(ctx, id), invitation: null };
  }

  const person = input.personId ? await applicantPerson(ctx, application, input.personId) : null;
  // The unit is in the tenant's database and idempotent, so it may safely come before the batch.
  const unit = await findOrCreateUnit({
    ctx,
    input: { block: application.block, number: application.houseNumber },
  });
  const account = await createResidentAccount({
    ctx,
    input: {
      fullName: application.fullName,
      email: application.email,
      whatsapp: application.whatsapp,
      unitId: unit.id,
      personId: person?.id ?? null,
    },
  });
  try {
    await ctx.platform.batch([
      ...decide(account.userId),
      ...account.statements,
      // userId is null while an existing account's holder has not accepted the join link: the record
      // says no more than the answer does.
      audit("application.approve", { userId: account.userId, unitId: unit.id, personId: person?.id ?? null }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw alreadyDecided();
    }
    if (isAccountConflict(error)) {
      throw new Conflict("account_conflict", "An account with this email or number was created meanwhile.");
    }
    if (isPersonTaken(error)) {
      throw personTaken();
    }
    throw error;
  }
  const invitation = await account.send();
  return { application: await reload(ctx, id), invitation };
}

async function reload(ctx: TenantCtx, id: string) {
  const row = await rowById(ctx.platform, residentApplications, id);
  if (!row) {
    throw new NotFound("Application");
  }
  return presentApplication(row);
}
