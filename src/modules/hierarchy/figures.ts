import { and, eq, sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { PlatformCtx, TenantCtx, TenantInfo } from "../../core/context";
import { tenants } from "../../core/db/platform-schema";
import type { RouteEnv } from "../../core/env";
import { tenantCtx } from "../../core/http/access";
import { log } from "../../core/http/log";
import { computeMany, type Indicator } from "../../core/indicators";
import { rtFigures } from "./platform-tables";
import type { Figures } from "./schemas";

/**
 * The RW summary's figures of each RT, kept in the platform database (ADR 0038): read from the RT's own
 * database after each successful write to a linked RT, and by the summary for a row that is missing or
 * older than `MAX_AGE_MS`; the summary itself reads only the kept rows.
 */

/**
 * How old a kept row may be before the summary reads the RT again. Most changes reach the row within
 * the write that made them (`keepFiguresAfterWrite`); what does not (a payment settled by the gateway's
 * callback, a scheduled job, an RT whose cached record had not seen its link yet, a refresh that failed)
 * is at most this late. A quarter of an hour is within what an RW head's overview needs (the spec's
 * figures are monthly dues and queues measured in days) and makes a live read of all 20 RTs rare.
 */
export const MAX_AGE_MS = 15 * 60_000;

/**
 * The indicator keys the summary reads. Dues arrears come from the dues module's indicators once it is
 * mounted (`duesArrears` in rupiah, `duesArrearsUnits` in housing units); until then they are 0.
 */
const KEYS = {
  residents: "totalResidents",
  duesAmount: "duesArrears",
  duesUnits: "duesArrearsUnits",
  letters: "lettersAwaitingProcessing",
  complaints: "openComplaints",
} as const;
const KEY_LIST: readonly string[] = Object.values(KEYS);

type Kept = typeof rtFigures.$inferSelect;

/**
 * One RT's figures in one D1 round trip (`computeMany`), each as its module computes it whether or not
 * the RT has the module on: `masked` applies the flags when the figures are shown, so a flag switched
 * later needs no recomputation. An indicator that is not mounted counts 0.
 */
async function readFigures(ctx: TenantCtx, indicators: readonly Indicator[]): Promise<Kept> {
  const computedAt = ctx.now().toISOString();
  const active = indicators.filter((i) => KEY_LIST.includes(i.key));
  const values = await computeMany(ctx, active);
  const value = (key: string) => values[active.findIndex((i) => i.key === key)] ?? 0;
  return {
    tenantId: ctx.tenant.id,
    residents: value(KEYS.residents),
    duesArrearsAmount: value(KEYS.duesAmount),
    duesArrearsUnits: value(KEYS.duesUnits),
    lettersAwaitingProcessing: value(KEYS.letters),
    complaintsOpen: value(KEYS.complaints),
    computedAt,
  };
}

/**
 * Stores freshly read rows, one upsert each in one batch (a statement of them all would pass D1's 100
 * bound parameters at 15 RTs). A row replaces the kept one only if it was read at the same time or
 * later, so a slow read that started before a write's refresh cannot put older figures back over newer
 * ones.
 */
async function store(ctx: PlatformCtx, rows: readonly Kept[]): Promise<void> {
  const db = ctx.platform;
  const upserts = rows.map((row) =>
    db
      .insert(rtFigures)
      .values(row)
      .onConflictDoUpdate({
        target: rtFigures.tenantId,
        set: {
          residents: sql`excluded.residents`,
          duesArrearsAmount: sql`excluded.dues_arrears_amount`,
          duesArrearsUnits: sql`excluded.dues_arrears_units`,
          lettersAwaitingProcessing: sql`excluded.letters_awaiting_processing`,
          complaintsOpen: sql`excluded.complaints_open`,
          computedAt: sql`excluded.computed_at`,
        },
        setWhere: sql`excluded.computed_at >= ${rtFigures.computedAt}`,
      }),
  );
  const [first, ...rest] = upserts;
  if (first) {
    await db.batch([first, ...rest]);
  }
}

/**
 * The kept rows of the RTs linked to the RW `rwId`, in one query: joined to the RTs' platform rows, so
 * a row of an RT linked elsewhere, or no longer linked, is not even read.
 */
export async function keptFigures(ctx: PlatformCtx, rwId: string): Promise<Map<string, Kept>> {
  const rows = await ctx.platform
    .select({ kept: rtFigures })
    .from(rtFigures)
    .innerJoin(tenants, eq(tenants.id, rtFigures.tenantId))
    .where(and(eq(tenants.parentId, rwId), eq(tenants.type, "RT")));
  return new Map(rows.map(({ kept }) => [kept.tenantId, kept]));
}

/**
 * Whether a kept row may be shown: read after the RT's current link (so a relink reads it again, and a
 * row of an earlier link is never shown) and no older than `MAX_AGE_MS` at `now`.
 */
export function usable(row: Kept | undefined, linkedAt: string, now: Date): row is Kept {
  return (
    row !== undefined &&
    row.computedAt >= linkedAt &&
    now.getTime() - Date.parse(row.computedAt) <= MAX_AGE_MS
  );
}

/**
 * Reads the RTs' figures from their databases and keeps them. Each RT answers alone: one that fails is
 * left out of the stored rows and of the answer (the summary lists it as unreadable).
 */
export async function readAndKeep(
  ctx: PlatformCtx,
  children: readonly TenantCtx[],
  indicators: readonly Indicator[],
): Promise<Map<string, Kept>> {
  const read = await Promise.all(
    children.map(async (child) => {
      try {
        return await readFigures(child, indicators);
      } catch (error) {
        log("error", "rw_summary_child_failed", {
          requestId: ctx.requestId,
          child: child.tenant.slug,
          reason: error instanceof Error ? error.message : String(error),
        });
        return null;
      }
    }),
  );
  const rows = read.filter((r): r is Kept => r !== null);
  await store(ctx, rows);
  return new Map(rows.map((r) => [r.tenantId, r]));
}

/** A kept row as the summary shows it: an indicator whose module is off in the RT counts 0. */
export function masked(row: Kept, tenant: TenantInfo, indicators: readonly Indicator[]): Figures {
  const on = (key: string) => {
    const found = indicators.find((i) => i.key === key);
    return found !== undefined && (!found.flag || tenant.flags[found.flag]);
  };
  const shown = (key: string, value: number) => (on(key) ? value : 0);
  return {
    residents: shown(KEYS.residents, row.residents),
    duesArrears: {
      amount: shown(KEYS.duesAmount, row.duesArrearsAmount),
      units: shown(KEYS.duesUnits, row.duesArrearsUnits),
    },
    lettersAwaitingProcessing: shown(KEYS.letters, row.lettersAwaitingProcessing),
    complaintsOpen: shown(KEYS.complaints, row.complaintsOpen),
  };
}

/** A row for an RT that is no longer linked: dropped, so its figures stay nowhere they could be shown. */
export function forgetFigures(ctx: PlatformCtx, tenantId: string) {
  return ctx.platform.delete(rtFigures).where(eq(rtFigures.tenantId, tenantId));
}

/**
 * Whether a module computes one of the figures the summary shows (its `indicators`): only its write
 * routes refresh an RT's kept row. A gate scan, a vote or a market listing changes none of them and
 * would pay a read of every figure for nothing.
 */
export function feedsRwFigures(module: { indicators?: readonly Indicator[] }): boolean {
  return (module.indicators ?? []).some((i) => KEY_LIST.includes(i.key));
}

/**
 * Runs in front of every write route of a module that `feedsRwFigures` (src/app.ts): once a write to an RT that is linked to an RW has
 * answered with success, that RT's figures are read again and kept, after the answer (`waitUntil`), so
 * the write waits for none of it. The RT's own context reads them, through the request's D1 session,
 * which has seen the write. A failure is logged; the kept row then ages out (`MAX_AGE_MS`).
 */
export function keepFiguresAfterWrite(indicators: readonly Indicator[]): MiddlewareHandler<RouteEnv> {
  return async (c, next) => {
    await next();
    const tenant = c.get("tenant");
    if (tenant?.type !== "RT" || tenant.parentId === null || !c.res.ok) {
      return;
    }
    const ctx = tenantCtx(c);
    c.executionCtx.waitUntil(
      readFigures(ctx, indicators)
        .then((row) => store(ctx, [row]))
        .catch((error: unknown) => {
          log("warn", "rw_figures_refresh_failed", {
            requestId: ctx.requestId,
            tenant: tenant.slug,
            reason: error instanceof Error ? error.message : String(error),
          });
        }),
    );
  };
}
