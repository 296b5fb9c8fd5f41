import type { TenantCtx } from "../../core/context";
import { activeCampaigns, duesOfCaller } from "../keuangan/service";
import { latestBeritaTitles } from "./berita";
import type { WatchSummary } from "./schemas";

/** The finance part of the watch summary: the caller's dues owed and the tenant's active campaigns. */
export async function financeForWatch(ctx: TenantCtx): Promise<Pick<WatchSummary, "dues" | "campaigns">> {
  const [dues, campaigns] = await Promise.all([duesOfCaller({ ctx }), activeCampaigns({ ctx })]);
  const owed = dues?.items ?? [];
  return {
    dues: { total: owed.reduce((sum, bill) => sum + bill.outstanding, 0), count: owed.length },
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
    campaigns: finance.campaigns.slice(0, 3).map((c) => ({
      ...c,
      title: c.title.length > TITLE_MAX ? `${c.title.slice(0, TITLE_MAX - 1)}…` : c.title,
    })),
  };
}
