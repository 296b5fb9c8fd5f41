import type { BatchItem } from "drizzle-orm/batch";
import type { TenantCtx } from "./context";
import type { FeatureFlag } from "./flags";

/**
 * An indicator's figure as one query: a select of a single row whose column `n` is the figure (e.g.
 * `ctx.db.select({ n: count() }).from(t).where(…)`). Being a query rather than a promise, a reader of
 * several indicators sends them in one `ctx.db.batch` (one D1 round trip).
 */
export type IndicatorQuery = BatchItem<"sqlite"> & {
  get(): Promise<{ n: number | string | null } | undefined>;
};

/**
 * A dashboard indicator a module contributes to `GET /api/statistik/operasional`. Modules list their
 * indicators in their module definition; the route computes those whose module is on for the tenant,
 * so adding a module adds its indicator without touching the route.
 */
export interface Indicator {
  key: string;
  label: string;
  flag?: FeatureFlag;
  compute(ctx: TenantCtx): Promise<number>;
  /** The same figure as one batchable query (`indicator()` fills in `compute` from it). */
  query?(ctx: TenantCtx): IndicatorQuery;
}

/** An indicator defined by its query; `compute` runs the query alone. */
export function indicator(
  def: Omit<Indicator, "compute"> & { query(ctx: TenantCtx): IndicatorQuery },
): Indicator {
  return { ...def, compute: async (ctx) => Number((await def.query(ctx).get())?.n ?? 0) };
}

/**
 * The values of several indicators in one D1 round trip: their queries in one batch where every one has
 * a query, else each computed on its own (in parallel).
 */
export async function computeMany(ctx: TenantCtx, indicators: readonly Indicator[]): Promise<number[]> {
  if (indicators.length === 0) {
    return [];
  }
  const queries = indicators.map((i) => i.query?.(ctx));
  if (queries.every((q): q is IndicatorQuery => q !== undefined)) {
    const results = (await ctx.db.batch(queries as [IndicatorQuery, ...IndicatorQuery[]])) as unknown[];
    return results.map((rows) => Number((rows as { n: number | string | null }[])[0]?.n ?? 0));
  }
  return Promise.all(indicators.map((i) => i.compute(ctx)));
}
