import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowById, rowByIdOrNotFound } from "../../core/db/rows";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { jakartaDay, nowIso } from "../../core/time";
import { requireTenantFile, tenantFileUrl } from "../../core/uploads";
import { userNames } from "../identity/service";
import { postCash, todayJakarta } from "./kas";
import type { CampaignInput, CampaignListQuery, CampaignUpdate, DonationInput } from "./schemas";
import { campaigns, donations } from "./tables";

type CampaignRow = typeof campaigns.$inferSelect;
type DonationRow = typeof donations.$inferSelect;

const isFinance = (ctx: TenantCtx) => hasRole(ctx, ROLES.FINANCE);

async function progressOf(ctx: TenantCtx, ids: readonly string[]) {
  const found = new Map<string, { confirmed: number; donors: number }>();
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await ctx.db
      .select({
        campaignId: donations.campaignId,
        confirmed: sql<number>`coalesce(sum(${donations.amount}), 0)`,
        donors: sql<number>`count(distinct coalesce(${donations.donorId}, ${donations.id}))`,
      })
      .from(donations)
      .where(and(inArray(donations.campaignId, ids.slice(i, i + 90)), eq(donations.status, "dikonfirmasi")))
      .groupBy(donations.campaignId);
    for (const row of rows) {
      found.set(row.campaignId, { confirmed: Number(row.confirmed), donors: Number(row.donors) });
    }
  }
  return found;
}

function present(
  ctx: TenantCtx,
  row: CampaignRow,
  progress: { confirmed: number; donors: number } | undefined,
) {
  const confirmed = progress?.confirmed ?? 0;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    target: row.target,
    deadline: row.deadline,
    status: row.status,
    coverUrl: row.coverFileId ? tenantFileUrl(ctx, row.coverFileId) : null,
    progress: {
      confirmed,
      percent: row.target > 0 ? Math.round((confirmed / row.target) * 1000) / 10 : 0,
      donors: progress?.donors ?? 0,
    },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function load(ctx: TenantCtx, id: string): Promise<CampaignRow> {
  return rowByIdOrNotFound(ctx.db, campaigns, id, "Campaign");
}

export async function listCampaigns({ ctx, input }: { ctx: TenantCtx; input: CampaignListQuery }) {
  const filters: SQL[] = [
    ...afterCursor(campaigns.id, input.cursor, "desc"),
    ...(input.status ? [eq(campaigns.status, input.status)] : []),
  ];
  const rows = await ctx.db
    .select()
    .from(campaigns)
    .where(and(...filters))
    .orderBy(desc(campaigns.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  const progress = await progressOf(
    ctx,
    page.items.map((r) => r.id),
  );
  return {
    items: page.items.map((row) => present(ctx, row, progress.get(row.id))),
    nextCursor: page.nextCursor,
  };
}

/** Active campaigns with their progress, for other modules (the assistant, the watch summary). */
export async function activeCampaigns({ ctx }: { ctx: TenantCtx }) {
  const rows = await ctx.db
    .select()
    .from(campaigns)
    .where(eq(campaigns.status, "aktif"))
    .orderBy(desc(campaigns.id))
    .limit(50);
  const progress = await progressOf(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((row) => present(ctx, row, progress.get(row.id)));
}

/**
 * Donations as the caller may see them: finance sees every donor; others see pledges only once
 * confirmed, and never the name of an anonymous donor (a resident still sees their own).
 */
function presentDonation(ctx: TenantCtx, row: DonationRow, names: Map<string, string>) {
  const own = ctx.actor.kind === "user" && row.donorId === ctx.actor.userId;
  const name = row.donorName ?? (row.donorId ? (names.get(row.donorId) ?? null) : null);
  return {
    id: row.id,
    campaignId: row.campaignId,
    donorName: row.anonymous && !isFinance(ctx) && !own ? null : name,
    anonymous: row.anonymous,
    amount: row.amount,
    note: row.note,
    status: row.status,
    cashEntryId: isFinance(ctx) ? row.cashEntryId : null,
    createdAt: row.createdAt,
  };
}

export async function getCampaign({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await load(ctx, id);
  const viewer = ctx.actor.kind === "user" ? ctx.actor.userId : "";
  const rows = await ctx.db
    .select()
    .from(donations)
    .where(eq(donations.campaignId, id))
    .orderBy(desc(donations.id))
    .limit(200);
  const visible = isFinance(ctx)
    ? rows
    : rows.filter((d) => d.status === "dikonfirmasi" || d.donorId === viewer);
  const names = await userNames({ ctx, ids: visible.flatMap((d) => (d.donorId ? [d.donorId] : [])) });
  const progress = await progressOf(ctx, [id]);
  return {
    ...present(ctx, row, progress.get(id)),
    donations: visible.map((d) => presentDonation(ctx, d, names)),
  };
}

export async function createCampaign({ ctx, input }: { ctx: TenantCtx; input: CampaignInput }) {
  const by = requireUser(ctx).userId;
  if (input.deadline < todayJakarta(ctx)) {
    throw new Invalid("invalid_date", "The deadline is in the past.", [
      { field: "deadline", message: "in the past" },
    ]);
  }
  if (input.coverFileId) {
    await requireTenantFile(ctx, input.coverFileId, { purposes: ["sampul"], field: "coverFileId" });
  }
  const id = newId();
  await ctx.db.batch([
    ctx.db.insert(campaigns).values({ id, ...input, status: "aktif", createdBy: by, updatedAt: nowIso(ctx) }),
    audit(ctx, {
      action: "kampanye.create",
      targetType: "campaign",
      targetId: id,
      detail: { target: input.target },
    }),
  ]);
  return getCampaign({ ctx, id });
}

/** Edits, and the state moves: `aktif` → `selesai` or `dibatalkan`; a closed campaign stays closed. */
export async function updateCampaign({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: CampaignUpdate;
}) {
  const current = await load(ctx, id);
  if (current.status !== "aktif") {
    throw new Conflict("campaign_closed", `This campaign is ${current.status}; it can no longer change.`);
  }
  if (input.coverFileId) {
    await requireTenantFile(ctx, input.coverFileId, { purposes: ["sampul"], field: "coverFileId" });
  }
  await ctx.db.batch([
    ctx.db
      .update(campaigns)
      .set({ ...input, updatedAt: nowIso(ctx) })
      .where(eq(campaigns.id, id)),
    audit(ctx, { action: "kampanye.update", targetType: "campaign", targetId: id, detail: { ...input } }),
  ]);
  return getCampaign({ ctx, id });
}

const cashPosting = (
  ctx: TenantCtx,
  campaign: CampaignRow,
  donation: Pick<DonationRow, "id" | "amount">,
) => ({
  kind: "masuk" as const,
  category: "Donasi",
  amount: donation.amount,
  date: todayJakarta(ctx),
  note: `Donasi: ${campaign.title}`,
  source: "donasi" as const,
  sourceId: donation.id,
});

/**
 * A resident pledges (`dijanjikan`, confirmed later by the treasurer); the treasurer records cash in
 * hand from a named donor (`donorName`), confirmed and posted to the cash book at once. A finance
 * officer's own donation (no `donorName`) is a pledge like a resident's, and another officer confirms
 * it (issue 31 N5).
 */
export async function donate({ ctx, id, input }: { ctx: TenantCtx; id: string; input: DonationInput }) {
  const by = requireUser(ctx).userId;
  const campaign = await load(ctx, id);
  if (campaign.status !== "aktif" || campaign.deadline < jakartaDay(ctx.now())) {
    throw new Conflict("campaign_closed", "This campaign no longer takes donations.");
  }
  const cash = isFinance(ctx) && input.donorName !== undefined;
  const donationId = newId();
  const now = nowIso(ctx);
  const entry = cash
    ? postCash(ctx, cashPosting(ctx, campaign, { id: donationId, amount: input.amount }))
    : null;
  await ctx.db.batch([
    ctx.db.insert(donations).values({
      id: donationId,
      campaignId: id,
      donorId: cash ? null : by,
      donorName: cash ? (input.donorName ?? null) : null,
      anonymous: input.anonymous,
      amount: input.amount,
      note: input.note ?? null,
      status: cash ? "dikonfirmasi" : "dijanjikan",
      recordedBy: by,
      decidedBy: cash ? by : null,
      decidedAt: cash ? now : null,
      cashEntryId: entry?.id ?? null,
      updatedAt: now,
    }),
    ...(entry?.writes ?? []),
    ...(cash
      ? [
          audit(ctx, {
            action: "donasi.cash",
            targetType: "donation",
            targetId: donationId,
            detail: { campaignId: id, amount: input.amount, cashEntryId: entry?.id ?? null },
          }),
        ]
      : []),
  ]);
  const row = await rowById(ctx.db, donations, donationId);
  if (!row) {
    throw new Error("donation vanished after insert");
  }
  return presentDonation(ctx, row, await userNames({ ctx, ids: [by] }));
}

/**
 * The treasurer confirms (posting it) or rejects a pledge, once; never their own (409
 * `self_confirmation`): another finance officer decides it.
 */
export async function decideDonation({
  ctx,
  id,
  donationId,
  status,
}: {
  ctx: TenantCtx;
  id: string;
  donationId: string;
  status: "dikonfirmasi" | "ditolak";
}) {
  const by = requireUser(ctx).userId;
  const campaign = await load(ctx, id);
  const donation = await ctx.db
    .select()
    .from(donations)
    .where(and(eq(donations.id, donationId), eq(donations.campaignId, id)))
    .get();
  if (!donation) {
    throw new NotFound("Donation");
  }
  if (donation.donorId === by) {
    throw new Conflict("self_confirmation", "Another finance officer decides your own donation.");
  }
  if (donation.status !== "dijanjikan") {
    throw new Conflict("invalid_transition", `This donation is already ${donation.status}.`);
  }
  const now = nowIso(ctx);
  const entry = status === "dikonfirmasi" ? postCash(ctx, cashPosting(ctx, campaign, donation)) : null;
  try {
    await ctx.db.batch([
      ctx.db
        .update(donations)
        .set({ status, decidedBy: by, decidedAt: now, cashEntryId: entry?.id ?? null, updatedAt: now })
        .where(and(eq(donations.id, donationId), eq(donations.status, "dijanjikan"))),
      abortBatchUnless(
        ctx.db,
        donations,
        donationId,
        and(eq(donations.decidedAt, now), eq(donations.decidedBy, by)) as SQL,
      ),
      ...(entry?.writes ?? []),
      audit(ctx, {
        action: status === "dikonfirmasi" ? "donasi.confirm" : "donasi.reject",
        targetType: "donation",
        targetId: donationId,
        detail: { campaignId: id, amount: donation.amount, cashEntryId: entry?.id ?? null },
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new Conflict("invalid_transition", "This donation was decided meanwhile.");
    }
    throw error;
  }
  const row = await rowById(ctx.db, donations, donationId);
  if (!row) {
    throw new NotFound("Donation");
  }
  return presentDonation(ctx, row, await userNames({ ctx, ids: row.donorId ? [row.donorId] : [] }));
}
