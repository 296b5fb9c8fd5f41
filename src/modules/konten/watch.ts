import type { TenantCtx } from "../../core/context";
import { callerUnitId } from "../identity/service";
import { activeCampaignsQuery, owedQuery, presentActiveCampaigns, presentOwed } from "../keuangan/service";
import { latestBeritaTitles } from "./berita";
import type { WatchSummary } from "./schemas";

/** Campaigns and news titles the watch shows. */
const WATCH_CAMPAIGNS = 3;
const WATCH_NEWS = 3;

const TITLE_MAX = 80;
const short = (title: string) => (title.length > TITLE_MAX ? `${title.slice(0, TITLE_MAX - 1)}…` : title);

/**
 * One round trip for the watch, kept under 2 KB: what the caller's household owes (counted in SQL, no
 * bill read out; nothing without a house), the three latest news titles and the newest active campaigns
 * with their progress, in one batch of the tenant's database. The house comes with the request (the
 * token's, ADR 0043), so the platform database is not read.
 */
export async function watchSummary({ ctx }: { ctx: TenantCtx }): Promise<WatchSummary> {
  const unitId = await callerUnitId({ ctx });
  const [campaigns, news, owed] = await ctx.db.batch([
    activeCampaignsQuery(ctx, WATCH_CAMPAIGNS),
    latestBeritaTitles(ctx, WATCH_NEWS),
    // A house no bill names when there is none: the batch keeps one shape, and the count is nought.
    owedQuery(ctx, unitId ?? ""),
  ]);
  return {
    dues: unitId ? presentOwed(owed) : { total: 0, count: 0 },
    news: news.map((n) => ({ id: n.id, title: short(n.title), publishedAt: n.publishedAt })),
    campaigns: presentActiveCampaigns(ctx, campaigns).map((c) => ({
      id: c.id,
      title: short(c.title),
      collected: c.progress.confirmed,
      target: c.target,
    })),
  };
}
