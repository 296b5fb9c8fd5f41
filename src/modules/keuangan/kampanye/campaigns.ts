import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { audit } from "../../../core/audit";
import type { TenantCtx } from "../../../core/context";
import { afterCursor, keysetPage } from "../../../core/db/paging";
import { Conflict, Invalid } from "../../../core/errors";
import { requireUser } from "../../../core/http/access";
import { newId } from "../../../core/ids";
import { nowIso } from "../../../core/time";
import { requireTenantFile } from "../../../platform/uploads";
import { userNames } from "../../identity/service";
import { todayJakarta } from "../kas/entries";
import { campaigns, donations } from "../tables";
import {
  isFinance,
  loadCampaign,
  presentCampaign,
  presentDonation,
  progressById,
  progressOf,
  progressQuery,
} from "./present";
import type { CampaignInput, CampaignListQuery, CampaignUpdate } from "./schemas";

// Donation campaigns (kampanye): the list, one campaign with its donations, starting and editing one.

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
    items: page.items.map((row) => presentCampaign(ctx, row, progress.get(row.id))),
    nextCursor: page.nextCursor,
  };
}

/**
 * Active campaigns with their progress, newest first, for other modules (the assistant, the watch
 * summary, which shows `limit` of them).
 */
/**
 * The newest active campaigns with their progress, in one statement a caller may put in its own batch
 * (the watch summary): each campaign's confirmed sum and donors counted from the donations' (campaign,
 * status) index. `presentActiveCampaigns` turns its rows into the answer's campaigns.
 */
export function activeCampaignsQuery(ctx: TenantCtx, limit: number) {
  const confirmed = and(eq(donations.campaignId, campaigns.id), eq(donations.status, "dikonfirmasi"));
  return ctx.db
    .select({
      campaign: campaigns,
      confirmed: sql<number>`(select coalesce(sum(${donations.amount}), 0) from ${donations} where ${confirmed})`,
      donors: sql<number>`(select count(distinct coalesce(${donations.donorId}, ${donations.id})) from ${donations} where ${confirmed})`,
    })
    .from(campaigns)
    .where(eq(campaigns.status, "aktif"))
    .orderBy(desc(campaigns.id))
    .limit(limit);
}

export function presentActiveCampaigns(
  ctx: TenantCtx,
  rows: Awaited<ReturnType<typeof activeCampaignsQuery>>,
) {
  return rows.map((row) =>
    presentCampaign(ctx, row.campaign, { confirmed: Number(row.confirmed), donors: Number(row.donors) }),
  );
}

export async function getCampaign({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await loadCampaign(ctx, id);
  const viewer = ctx.actor.kind === "user" ? ctx.actor.userId : "";
  // The newest donations and the campaign's totals in one round trip.
  const [rows, totals] = await ctx.db.batch([
    ctx.db
      .select()
      .from(donations)
      .where(eq(donations.campaignId, id))
      .orderBy(desc(donations.id))
      .limit(200),
    progressQuery(ctx, [id]),
  ]);
  const visible = isFinance(ctx)
    ? rows
    : rows.filter((d) => d.status === "dikonfirmasi" || d.donorId === viewer);
  const names = await userNames({ ctx, ids: visible.flatMap((d) => (d.donorId ? [d.donorId] : [])) });
  return {
    ...presentCampaign(ctx, row, progressById(totals).get(id)),
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
  const current = await loadCampaign(ctx, id);
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
