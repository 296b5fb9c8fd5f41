import { and, desc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted, isUniqueViolation } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowByIdOrNotFound } from "../../core/db/rows";
import { Conflict, InvalidTransition } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { tellResident } from "../../platform/notify";
import { aspirasiQuota } from "./limits";
import type { CreateProposalInput, DecideProposalInput, ProposalListQuery } from "./schemas";
import { proposalEndorsements, proposals } from "./tables";

type Row = typeof proposals.$inferSelect;

/** A proposal is decided once: `diajukan → diterima | ditolak`, then final. */
const NEXT: Record<Row["status"], Row["status"][]> = {
  diajukan: ["diterima", "ditolak"],
  diterima: [],
  ditolak: [],
};

function present(row: Row, endorsedByMe: boolean) {
  return {
    id: row.id,
    residentId: row.residentId,
    title: row.title,
    description: row.description,
    estimatedCost: row.estimatedCost,
    status: row.status,
    note: row.note,
    endorsements: row.endorsements,
    endorsedByMe,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function load(ctx: TenantCtx, id: string): Promise<Row> {
  return rowByIdOrNotFound(ctx.db, proposals, id, "Proposal");
}

async function endorsedBy(ctx: TenantCtx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) {
    return new Set();
  }
  const rows = await ctx.db
    .select({ id: proposalEndorsements.proposalId })
    .from(proposalEndorsements)
    .where(
      and(
        eq(proposalEndorsements.userId, requireUser(ctx).userId),
        inArray(proposalEndorsements.proposalId, ids),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

export async function createProposal({ ctx, input }: { ctx: TenantCtx; input: CreateProposalInput }) {
  await aspirasiQuota(ctx, "usulan-create:member");
  const [row] = await ctx.db
    .insert(proposals)
    .values({
      id: newId(),
      residentId: requireUser(ctx).userId,
      title: input.title,
      description: input.description,
      estimatedCost: input.estimatedCost ?? null,
      status: "diajukan",
      updatedAt: ctx.now().toISOString(),
    })
    .returning();
  if (!row) {
    throw new Error("insert returned no row");
  }
  return present(row, false);
}

export async function getProposal({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await load(ctx, id);
  return present(row, (await endorsedBy(ctx, [id])).has(id));
}

export async function listProposals({ ctx, input }: { ctx: TenantCtx; input: ProposalListQuery }) {
  // Whether the caller endorsed each proposal, in the page's own statement (the primary key of
  // proposal_endorsements answers it), not in a second call.
  const rows = await ctx.db
    .select({
      ...getTableColumns(proposals),
      endorsedByMe: sql<number>`exists (select 1 from ${proposalEndorsements} where ${proposalEndorsements.proposalId} = ${proposals.id} and ${proposalEndorsements.userId} = ${requireUser(ctx).userId})`,
    })
    .from(proposals)
    .where(
      and(
        ...afterCursor(proposals.id, input.cursor, "desc"),
        ...(input.status ? [eq(proposals.status, input.status)] : []),
      ),
    )
    .orderBy(desc(proposals.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return { items: page.items.map((r) => present(r, r.endorsedByMe === 1)), nextCursor: page.nextCursor };
}

/**
 * One endorsement per resident: the endorsement row (primary key proposal + user) and the counter
 * move in one batch, so a second endorsement fails whole and the count never drifts from the rows.
 */
export async function endorseProposal({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await load(ctx, id);
  const userId = requireUser(ctx).userId;
  if (row.residentId === userId) {
    throw new Conflict("own_proposal", "You cannot endorse your own proposal.");
  }
  if (row.status !== "diajukan") {
    throw new Conflict("proposal_closed", `This proposal is already ${row.status}.`);
  }
  await aspirasiQuota(ctx, "usulan-endorse:member");
  try {
    await ctx.db.batch([
      ctx.db
        .insert(proposalEndorsements)
        .values({ proposalId: id, userId, createdAt: ctx.now().toISOString() }),
      ctx.db
        .update(proposals)
        .set({ endorsements: sql`${proposals.endorsements} + 1` })
        .where(eq(proposals.id, id)),
    ]);
  } catch (error) {
    if (isUniqueViolation(error, "proposal_endorsements")) {
      throw new Conflict("already_endorsed", "You have already endorsed this proposal.");
    }
    throw error;
  }
  return getProposal({ ctx, id });
}

export async function decideProposal({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: DecideProposalInput;
}) {
  await load(ctx, id); // 404 for an unknown proposal
  const now = ctx.now().toISOString();
  // Only from diajukan: a concurrent decision loses here instead of overwriting the first, and the
  // guard (`changes()` is the update's row count) keeps the loser's audit record out too.
  let row: Row | undefined;
  try {
    [[row]] = await ctx.db.batch([
      ctx.db
        .update(proposals)
        .set({
          status: input.status,
          note: input.note,
          decidedBy: requireUser(ctx).userId,
          decidedAt: now,
          updatedAt: now,
        })
        .where(and(eq(proposals.id, id), eq(proposals.status, "diajukan")))
        .returning(),
      abortBatchUnless(ctx.db, proposals, id, sql`changes() = 1`),
      audit(ctx, { action: `usulan.${input.status}`, targetType: "proposal", targetId: id }),
    ]);
  } catch (error) {
    if (!isBatchAborted(error)) {
      throw error;
    }
  }
  if (!row) {
    const fresh = await load(ctx, id);
    throw new InvalidTransition(`This proposal is already ${fresh.status}.`, NEXT[fresh.status]);
  }
  await tellResident(ctx, row.residentId, {
    subject: `Usulan "${row.title}" ${input.status}`,
    text: `Usulan Anda "${row.title}" ${input.status} oleh pengurus.\nCatatan: ${input.note}`,
    idempotencyKey: `usulan:${ctx.tenant.slug}:${id}:${input.status}`,
  });
  return getProposal({ ctx, id });
}
