import type { PlatformCtx, TenantCtx } from "./context";
import type { Bindings } from "./env";
import type { FeatureFlag } from "./flags";
import { log } from "./http/log";
import { forEachTenant, systemPlatformCtx, systemTenantCtx } from "./tenancy/system";

/**
 * The Cron Triggers the API declares in wrangler.toml (`[triggers] crons`, UTC). Jobs name one of
 * these; a job that needs a finer rule (the 1st of the month, 18:00 WIB) checks `scheduledAt` itself,
 * so the trigger list stays short and every job is idempotent when a run is repeated or skipped.
 */
export const CRON = {
  /** Every hour on the hour: reminders, expiries, queued work that waits for a Jakarta hour. */
  HOURLY: "0 * * * *",
  /** 00:05 WIB (17:05 UTC), a few minutes into the Jakarta day: month and day rollovers. */
  JAKARTA_DAILY: "5 17 * * *",
} as const;

export type Cron = (typeof CRON)[keyof typeof CRON];

/** What a job reports back; logged as one line per job per run. */
export type JobReport = Record<string, number | string | boolean>;

/** Work a module asks the platform to do on a schedule (see `AppModule.jobs`). */
export interface Job {
  name: string;
  cron: Cron;
  /**
   * `ctx.actor` is `{ kind: "system" }`. `scheduledAt` is the trigger's own time, not the wall clock,
   * so a run retried later still acts for the moment it was meant for.
   */
  run(ctx: PlatformCtx, scheduledAt: Date): Promise<JobReport | undefined>;
}

/** A job that runs once per active tenant (optionally only where a feature is on). */
export interface TenantJobOptions {
  flag?: FeatureFlag;
}

export type TenantJobRun = (ctx: TenantCtx, scheduledAt: Date) => Promise<JobReport | undefined>;

/**
 * A job that does the same work in every active tenant (with `flag` on), a few tenants at a time;
 * a tenant that fails is counted and logged and the rest still run. The job's report is the number of
 * tenants and of failures, plus the sum over tenants of every number their reports hold.
 */
export function tenantJob(name: string, cron: Cron, run: TenantJobRun, options: TenantJobOptions = {}): Job {
  return {
    name,
    cron,
    async run(ctx, scheduledAt) {
      const results = await forEachTenant(ctx, (tenantCtx) => run(tenantCtx, scheduledAt), {
        flag: options.flag,
      });
      for (const failed of results.filter((r) => r.error)) {
        log("error", "job.tenant_failed", { job: name, tenant: failed.slug, error: failed.error });
      }
      const totals: Record<string, number> = {};
      for (const { result } of results) {
        for (const [key, value] of Object.entries(result ?? {})) {
          if (typeof value === "number") {
            totals[key] = (totals[key] ?? 0) + value;
          }
        }
      }
      return { ...totals, tenants: results.length, failed: results.filter((r) => r.error).length };
    },
  };
}

/**
 * A Durable Object's context inside the tenant it stored when it was made (a poll's tally keeps its
 * tenant's slug): the platform acting on its own (actor `system`, `reason` saying what for), like a job.
 * Suspension does not stop it: the object is bookkeeping of work already accepted (ballots cast while the
 * tenant was active). The flag is not checked either; the caller decides what a switched-off module means.
 */
export function objectTenantCtx(bindings: Bindings, slug: string, reason: string): Promise<TenantCtx> {
  return systemTenantCtx(bindings, slug, reason);
}

/**
 * The Worker's `scheduled` handler: every job declared for the trigger that fired, each on its own so
 * one job's failure does not skip the next. Tests call it directly with a chosen `scheduledAt`.
 */
export async function runScheduled(
  ctx: PlatformCtx,
  jobs: readonly Job[],
  cron: string,
  scheduledAt: Date,
): Promise<Record<string, JobReport | { error: string }>> {
  const reports: Record<string, JobReport | { error: string }> = {};
  for (const job of jobs.filter((j) => j.cron === cron)) {
    try {
      reports[job.name] = (await job.run(ctx, scheduledAt)) ?? {};
      log("info", "job.done", { job: job.name, cron, ...reports[job.name] });
    } catch (err) {
      reports[job.name] = { error: err instanceof Error ? err.message : String(err) };
      log("error", "job.failed", { job: job.name, cron, error: reports[job.name]?.error });
    }
  }
  return reports;
}

/**
 * The Worker's `scheduled` export for these jobs. Typed on wrangler's generated `Env` (which lacks the
 * secrets when no .dev.vars exists, as on CI); the configuration check of `loadConfig` covers them.
 */
export function scheduledHandler(jobs: readonly Job[]): ExportedHandlerScheduledHandler<Env> {
  return (controller, env, execution) => {
    const ctx = systemPlatformCtx(env as Bindings, `cron:${controller.cron}`);
    execution.waitUntil(runScheduled(ctx, jobs, controller.cron, new Date(controller.scheduledTime)));
  };
}
