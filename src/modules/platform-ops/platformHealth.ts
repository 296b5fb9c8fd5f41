import type { PlatformCtx } from "../../core/context";
import { tenants } from "../../core/db/platform-schema";
import { log } from "../../core/http/log";
import { LATEST_TENANT_MIGRATION, slotHealth, TENANT_CACHE_TTL_MS } from "../../core/tenancy/health";
import type { DeliveryStats } from "../../platform/notify";
import { notifyFor } from "../../platform/notify";
import { tenantsWithoutAdmin } from "../identity/service";

async function timed<T>(
  fn: () => Promise<T>,
): Promise<{ ok: true; ms: number; value: T } | { ok: false; ms: number }> {
  const started = Date.now();
  try {
    const value = await fn();
    return { ok: true, ms: Date.now() - started, value };
  } catch (error) {
    log("warn", "platform_health_check_failed", { error: String(error) });
    return { ok: false, ms: Date.now() - started };
  }
}

/** How long a delivery alert keeps the health report degraded after its last occurrence. */
const ALERT_FRESH_MS = 60 * 60 * 1000;

/**
 * The operator's deep health view: every tenant slot (whether it answers, its migration, which tenant
 * holds it), the notification pipeline's backlog, dead letters, last failures and delivery alerts, the communities
 * without an admin, and the tenant cache TTL in force. Unlike `/api/health` it touches every database,
 * so it is for operators only.
 */
export async function platformHealth({ ctx }: { ctx: PlatformCtx }) {
  const [platformDb, slots, notify, withoutAdmin] = await Promise.all([
    timed(() =>
      ctx.platform
        .select({ slot: tenants.slot, slug: tenants.slug, status: tenants.status })
        .from(tenants)
        .all(),
    ),
    slotHealth(ctx),
    timed<DeliveryStats>(() => notifyFor(ctx.env).stats()),
    timed(() => tenantsWithoutAdmin({ ctx })),
  ]);
  const holders = new Map(platformDb.ok ? platformDb.value.map((t) => [t.slot, t]) : []);
  const items = slots.map((s) => {
    const holder = holders.get(s.slot);
    return {
      slot: s.slot,
      binding: s.binding,
      tenant: holder ? { slug: holder.slug, status: holder.status } : null,
      answers: s.answers,
      ms: s.ms,
      migration: s.migration,
      behind: s.behind,
      ...(s.error ? { error: s.error } : {}),
    };
  });
  const used = items.filter((s) => s.tenant).length;
  // A free slot is migrated when it is claimed; a used one behind this build's migrations is a problem.
  const slotProblems = items.filter((s) => !s.answers || (s.tenant && s.behind > 0)).length;
  // Delivery trouble of the last hour (an alert the notification service raised) is not "ok" either.
  const since = ctx.now().getTime() - ALERT_FRESH_MS;
  const alerting = notify.ok && (notify.value.alerts ?? []).some((a) => Date.parse(a.lastAt) >= since);
  const degraded = !platformDb.ok || !notify.ok || slotProblems > 0 || alerting;
  return {
    status: degraded ? ("degraded" as const) : ("ok" as const),
    version: ctx.config.VERSION,
    platformDb: { answers: platformDb.ok, ms: platformDb.ms },
    slots: {
      total: items.length,
      used,
      free: items.length - used,
      latestMigration: LATEST_TENANT_MIGRATION,
      problems: slotProblems,
      items,
    },
    notify: notify.ok ? { answers: true, ms: notify.ms, ...notify.value } : { answers: false, ms: notify.ms },
    // A community nobody can run: the operator re-sends or issues an admin invitation.
    tenantsWithoutAdmin: withoutAdmin.ok ? withoutAdmin.value : [],
    tenantCacheTtlSeconds: TENANT_CACHE_TTL_MS / 1000,
  };
}
