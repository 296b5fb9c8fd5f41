import type { TenantCtx } from "../../core/context";
import { activeCampaigns, owedOfCaller } from "../keuangan/service";
import { latestBeritaTitles } from "./berita";
import type { WatchSummary } from "./schemas";

/** Campaigns the watch shows. */
const WATCH_CAMPAIGNS = 3;

/**
 * The finance part of the watch summary: what the caller's household owes (counted in SQL, no bill
 * read out) and the newest active campaigns.
 */
async function financeForWatch(ctx: TenantCtx): Promise<Pick<WatchSummary, "dues" | "campaigns">> {
  const [owed, campaigns] = await Promise.all([
    owedOfCaller({ ctx }),
    activeCampaigns({ ctx, limit: WATCH_CAMPAIGNS }),
  ]);
  return {
    dues: owed ?? { total: 0, count: 0 },
    campaigns: campaigns.map((c) => ({
      id: c.id,
      title: c.title,
      collected: c.progress.confirmed,
      target: c.target,
    })),
  };
}

const TITLE_MAX = 80;

/** One round trip for the watch: dues, the three latest news titles, campaigns; kept under 2 KB. */
export async function watchSummary({ ctx }: { ctx: TenantCtx }): Promise<WatchSummary> {
  const [finance, news] = await Promise.all([financeForWatch(ctx), latestBeritaTitles(ctx, 3)]);
  return {
    dues: finance.dues,
    news: news.map((n) => ({
      id: n.id,
      title: n.title.length > TITLE_MAX ? `${n.title.slice(0, TITLE_MAX - 1)}…` : n.title,
      publishedAt: n.publishedAt,
    })),
    campaigns: finance.campaigns.map((c) => ({
      ...c,
      title: c.title.length > TITLE_MAX ? `${c.title.slice(0, TITLE_MAX - 1)}…` : c.title,
    })),
  };
}
