import { and, eq, inArray, sql } from "drizzle-orm";
import type { TenantCtx } from "../../../core/context";
import { rowByIdOrNotFound } from "../../../core/db/rows";
import { hasRole, ROLES } from "../../../core/http/access";
import { tenantFileUrl } from "../../../platform/uploads";
import { campaigns, donations } from "../tables";

// A campaign and its donations as the caller may see them, and the campaign's progress: what both the
// campaigns' verbs and the donations' verbs answer with.

export type CampaignRow = typeof campaigns.$inferSelect;
export type DonationRow = typeof donations.$inferSelect;

export const isFinance = (ctx: TenantCtx) => hasRole(ctx, ROLES.FINANCE);

/** Confirmed totals and donors of up to 90 campaigns (D1 binds at most 100 parameters), as one query. */
export function progressQuery(ctx: TenantCtx, ids: readonly string[]) {
  return ctx.db
    .select({
      campaignId: donations.campaignId,
      confirmed: sql<number>`coalesce(sum(${donations.amount}), 0)`,
      donors: sql<number>`count(distinct coalesce(${donations.donorId}, ${donations.id}))`,
    })
    .from(donations)
    .where(and(inArray(donations.campaignId, ids), eq(donations.status, "dikonfirmasi")))
    .groupBy(donations.campaignId);
}

/** `progressQuery`'s rows by campaign. */
export function progressById(rows: { campaignId: string; confirmed: number; donors: number }[]) {
  const found = new Map<string, { confirmed: number; donors: number }>();
  for (const row of rows) {
    found.set(row.campaignId, { confirmed: Number(row.confirmed), donors: Number(row.donors) });
  }
  return found;
}

export async function progressOf(ctx: TenantCtx, ids: readonly string[]) {
  const rows = [];
  for (let i = 0; i < ids.length; i += 90) {
    rows.push(...(await progressQuery(ctx, ids.slice(i, i + 90))));
  }
  return progressById(rows);
}

export function presentCampaign(
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

export async function loadCampaign(ctx: TenantCtx, id: string): Promise<CampaignRow> {
  return rowByIdOrNotFound(ctx.db, campaigns, id, "Campaign");
}

/**
 * Donations as the caller may see them: finance sees every donor; others see pledges only once
 * confirmed, and never the name of an anonymous donor (a resident still sees their own).
 */
export function presentDonation(ctx: TenantCtx, row: DonationRow, names: Map<string, string>) {
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
