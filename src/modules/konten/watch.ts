import type { TenantCtx } from "../../core/context";
import { latestBeritaTitles } from "./berita";
import type { WatchSummary } from "./schemas";

/**
 * The finance seam of the watch summary: the caller's dues owed and the tenant's active campaigns.
 * The finance module (keuangan: `duesOfCaller`, `activeCampaigns`) lands in parallel; until it is
 * wired here this answers nothing owed and no campaigns, never an invented figure.
 */
export async function financeForWatch(_ctx: TenantCtx): Promise<Pick<WatchSummary, "dues" | "campaigns">> {
  return { dues: { total: 0, count: 0 }, campaigns: [] };
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
    campaigns: finance.campaigns.slice(0, 3).map((c) => ({
      ...c,
      title: c.title.length > TITLE_MAX ? `${c.title.slice(0, TITLE_MAX - 1)}…` : c.title,
    })),
  };
}
