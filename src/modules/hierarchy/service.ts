import type { TenantCtx } from "../../core/context";
import { log } from "../../core/http/log";
import { computeMany, type Indicator } from "../../core/indicators";
import { childTenants } from "../../core/tenancy/contexts";
import { pendingRequests } from "./links";
import type { Figures } from "./schemas";

/**
 * The RW head's reads: the linked RTs and the summary of their counts. Asking, answering and
 * unlinking are in links.ts.
 */

/** The RTs linked to the caller's RW, by slug, and apart from them those asked that have not answered. */
export async function listChildren({ ctx }: { ctx: TenantCtx }) {
  const children = await childTenants(ctx);
  return {
    items: children.map(({ slug, name, linkedAt }) => ({ slug, name, linkedAt })),
    pending: await pendingRequests(ctx),
  };
}

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

const zero = (): Figures => ({
  residents: 0,
  duesArrears: { amount: 0, units: 0 },
  lettersAwaitingProcessing: 0,
  complaintsOpen: 0,
});

/**
 * One RT's figures in one D1 round trip: the indicators its modules have switched on, their queries in
 * one batch (`computeMany`); an indicator that is off or not mounted counts 0.
 */
async function figuresOf(ctx: TenantCtx, indicators: readonly Indicator[]): Promise<Figures> {
  const keys = [KEYS.residents, KEYS.duesAmount, KEYS.duesUnits, KEYS.letters, KEYS.complaints];
  const active = indicators.filter(
    (i) => (keys as readonly string[]).includes(i.key) && (!i.flag || ctx.tenant.flags[i.flag]),
  );
  const values = await computeMany(ctx, active);
  const value = (key: string) => values[active.findIndex((i) => i.key === key)] ?? 0;
  const [residents, amount, units, letters, complaints] = keys.map(value);
  return {
    residents,
    duesArrears: { amount, units },
    lettersAwaitingProcessing: letters,
    complaintsOpen: complaints,
  };
}

/**
 * Counts per linked RT and in total, every RT's database read at once. Linked means accepted:
 * `childTenants` follows `parentId` only, so an RT that was asked and has not answered is not read.
 * Only the dashboard's counts cross the tenant boundary, never a row. An RT whose read fails (or that is suspended) is listed with
 * its `error` and left out of the total; the others still answer.
 */
export async function hierarchySummary({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { indicators: readonly Indicator[] };
}) {
  const children = await childTenants(ctx);
  const rows = await Promise.all(
    children.map(async (child) => {
      if (!child.ctx) {
        return { slug: child.slug, name: child.name, figures: null, error: `tenant_${child.status}` };
      }
      try {
        return {
          slug: child.slug,
          name: child.name,
          figures: await figuresOf(child.ctx, input.indicators),
          error: null,
        };
      } catch (error) {
        log("error", "rw_summary_child_failed", {
          requestId: ctx.requestId,
          child: child.slug,
          reason: error instanceof Error ? error.message : String(error),
        });
        return { slug: child.slug, name: child.name, figures: null, error: "unreadable" };
      }
    }),
  );
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
  return { children: rows, total, generatedAt: ctx.now().toISOString() };
}
