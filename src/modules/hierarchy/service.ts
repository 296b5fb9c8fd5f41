import { and, eq, isNull, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { tenants } from "../../core/db/platform-schema";
import { Conflict, Forbidden, Invalid, NotFound } from "../../core/errors";
import { log } from "../../core/http/log";
import { computeMany, type Indicator } from "../../core/indicators";
import { childTenants, forgetTenant } from "../../core/tenancy/contexts";
import { nowIso } from "../../core/time";
import type { Figures, LinkChildInput } from "./schemas";

type TenantRow = typeof tenants.$inferSelect;

function requireRw(ctx: TenantCtx) {
  if (ctx.tenant.type !== "RW") {
    throw new Forbidden("not_rw_tenant", "Only an RW tenant links RTs.");
  }
}

const presentChild = (row: TenantRow) => ({
  slug: row.slug,
  name: row.name,
  linkedAt: row.linkedAt ?? row.createdAt,
});

/** The RTs linked to the caller's RW, by slug. */
export async function listChildren({ ctx }: { ctx: TenantCtx }) {
  const children = await childTenants(ctx);
  return { items: children.map(({ slug, name, linkedAt }) => ({ slug, name, linkedAt })) };
}

async function bySlug(ctx: TenantCtx, slug: string): Promise<TenantRow> {
  const row = await ctx.platform.select().from(tenants).where(eq(tenants.slug, slug)).get();
  if (!row) {
    throw new NotFound("Tenant");
  }
  return row;
}

/**
 * Links an RT to the caller's RW. The write only applies while the RT has no parent, and the guard
 * after it aborts the batch (and its audit record) when another RW got there first.
 */
export async function linkChild({ ctx, input }: { ctx: TenantCtx; input: LinkChildInput }) {
  requireRw(ctx);
  const child = await bySlug(ctx, input.slug);
  if (child.id === ctx.tenant.id) {
    throw new Invalid("invalid_child", "An RW cannot link itself.", [
      { field: "slug", message: "the caller" },
    ]);
  }
  if (child.type !== "RT") {
    throw new Invalid("invalid_child", "Only an RT tenant can be linked to an RW.", [
      { field: "slug", message: "not an RT tenant" },
    ]);
  }
  if (child.parentId === ctx.tenant.id) {
    return { child: presentChild(child), created: false };
  }
  if (child.parentId !== null) {
    throw new Conflict("already_linked", "This RT is already linked to another RW.");
  }
  const db = ctx.platform;
  const now = nowIso();
  try {
    await db.batch([
      db
        .update(tenants)
        .set({ parentId: ctx.tenant.id, linkedAt: now, updatedAt: now })
        .where(and(eq(tenants.id, child.id), isNull(tenants.parentId))),
      abortBatchUnless(db, tenants, child.id, sql`changes() = 1`),
      platformAudit(ctx, {
        action: "hierarchy.link",
        targetType: "tenant",
        targetId: child.id,
        detail: { slug: child.slug },
      }),
    ]);
  } catch (error) {
    if (!isBatchAborted(error)) {
      throw error;
    }
    const now = await bySlug(ctx, input.slug);
    if (now.parentId === ctx.tenant.id) {
      return { child: presentChild(now), created: false };
    }
    throw new Conflict("already_linked", "This RT is already linked to another RW.");
  }
  forgetTenant(child.slug);
  return { child: presentChild({ ...child, linkedAt: now }), created: true };
}

/**
 * Unlinks one of the caller's RTs. An RT that is not linked to the caller is 404, like any object that
 * is not yours; so is every slug for an RT caller, which never has RTs linked to it.
 */
export async function unlinkChild({ ctx, slug }: { ctx: TenantCtx; slug: string }) {
  const child = await bySlug(ctx, slug);
  if (child.parentId !== ctx.tenant.id) {
    throw new NotFound("Linked RT");
  }
  const db = ctx.platform;
  try {
    await db.batch([
      db
        .update(tenants)
        .set({ parentId: null, linkedAt: null, updatedAt: nowIso() })
        .where(and(eq(tenants.id, child.id), eq(tenants.parentId, ctx.tenant.id))),
      abortBatchUnless(db, tenants, child.id, sql`changes() = 1`),
      platformAudit(ctx, {
        action: "hierarchy.unlink",
        targetType: "tenant",
        targetId: child.id,
        detail: { slug: child.slug },
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new NotFound("Linked RT");
    }
    throw error;
  }
  forgetTenant(child.slug);
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
 * Counts per linked RT and in total, every RT's database read at once. Only the dashboard's counts
 * cross the tenant boundary, never a row. An RT whose read fails (or that is suspended) is listed with
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
  return { children: rows, total, generatedAt: new Date().toISOString() };
}
