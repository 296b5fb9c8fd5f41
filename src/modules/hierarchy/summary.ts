import type { TenantCtx } from "../../core/context";
import type { Indicator } from "../../core/indicators";
import { childTenants } from "../../core/tenancy/contexts";
import { keptFigures, masked, readAndKeep, usable } from "./figures";
import { pendingRequests } from "./links";
import type { Figures } from "./schemas";

/**
 * The RW head's reads: the linked RTs and the summary of their counts. Asking, answering and
 * unlinking are in links.ts.
 */

const zero = (): Figures => ({
  residents: 0,
  duesArrears: { amount: 0, units: 0 },
  lettersAwaitingProcessing: 0,
  complaintsOpen: 0,
});

/** The RTs linked to the caller's RW, by slug, and apart from them those asked that have not answered. */
export async function listChildren({ ctx }: { ctx: TenantCtx }) {
  const children = await childTenants(ctx);
  return {
    items: children.map(({ slug, name, linkedAt }) => ({ slug, name, linkedAt })),
    pending: await pendingRequests(ctx),
  };
}

/**
 * Counts per linked RT and in total, from the figures kept in the platform database (figures.ts, ADR
 * 0038): one query for every linked RT's row. An RT whose row is missing, older than the maximum age or
 * older than its current link is read live from its own database, as the summary always did, and the
 * row kept for the next call. Linked means accepted: `childTenants` follows `parentId` only, so an RT
 * that was asked and has not answered is neither read nor shown. Only the dashboard's counts cross the
 * tenant boundary, never a row. A suspended RT is listed with its `error` whatever is kept, and an RT
 * that has to be read and cannot be is listed as `unreadable`; both are left out of the total.
 */
export async function hierarchySummary({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { indicators: readonly Indicator[] };
}) {
  const children = await childTenants(ctx);
  const now = ctx.now();
  const kept = await keptFigures(ctx, ctx.tenant.id);
  // Each active RT's kept row if it may be shown; the others are read from their databases now.
  const fresh = new Map(
    children.flatMap((child) => {
      const row = child.ctx ? kept.get(child.ctx.tenant.id) : undefined;
      return row && usable(row, child.linkedAt, now) ? [[row.tenantId, row] as const] : [];
    }),
  );
  const stale = children.flatMap((child) =>
    child.ctx && !fresh.has(child.ctx.tenant.id) ? [child.ctx] : [],
  );
  const read = await readAndKeep(ctx, stale, input.indicators);
  const rows = children.map((child) => {
    if (!child.ctx) {
      return {
        slug: child.slug,
        name: child.name,
        figures: null,
        asOf: null,
        error: `tenant_${child.status}`,
      };
    }
    const id = child.ctx.tenant.id;
    const row = read.get(id) ?? fresh.get(id);
    if (!row) {
      return { slug: child.slug, name: child.name, figures: null, asOf: null, error: "unreadable" };
    }
    return {
      slug: child.slug,
      name: child.name,
      figures: masked(row, child.ctx.tenant, input.indicators),
      asOf: row.computedAt,
      error: null,
    };
  });
  const total = zero();
  for (const { figures } of rows) {
    if (figures) {
      total.residents += figures.residents;
      total.duesArrears.amount += figures.duesArrears.amount;
      total.duesArrears.units += figures.duesArrears.units;
      total.lettersAwaitingProcessing += figures.lettersAwaitingProcessing;
      total.complaintsOpen += figures.complaintsOpen;
    }
  }
  return { children: rows, total, generatedAt: now.toISOString() };
}
