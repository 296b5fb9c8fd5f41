import { lt } from "drizzle-orm";
import { idempotencyKeys } from "../../core/db/platform-schema";
import { tenantIdempotencyKeys } from "../../core/db/tenant-schema";
import { CRON, type Job, tenantJob } from "../../core/jobs";
import { defineModule, personalColumns, personalData } from "../../core/module";
import { IDEMPOTENCY_TTL_MS } from "./middleware";

export { IDEMPOTENCY_HEADER } from "../../core/http/openapi-document";
export { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, idempotency } from "./middleware";

export const IDEMPOTENCY_SWEEP_JOB = "idempotency-sweep";

/** The instant before which a key is forgotten, for a run meant for `at` (never the wall clock). */
function cutoff(at: Date): string {
  return new Date(at.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
}

const platformSweep: Job = {
  name: `${IDEMPOTENCY_SWEEP_JOB}:platform`,
  cron: CRON.HOURLY,
  async run(ctx, scheduledAt) {
    const gone = await ctx.platform
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, cutoff(scheduledAt)))
      .run();
    return { deleted: gone.meta.changes };
  },
};

const tenantSweep = tenantJob(IDEMPOTENCY_SWEEP_JOB, CRON.HOURLY, async (ctx, scheduledAt) => {
  const gone = await ctx.db
    .delete(tenantIdempotencyKeys)
    .where(lt(tenantIdempotencyKeys.createdAt, cutoff(scheduledAt)))
    .run();
  return { deleted: gone.meta.changes };
});

/**
 * Idempotency-Key (ADR 0034): no routes of its own (the middleware runs in front of every write route,
 * src/app.ts), the hourly sweep of keys older than 24 h, and how its tenant table holds personal data.
 */
export const idempotencyModule = defineModule({
  name: "idempotency",
  routes: [],
  jobs: [platformSweep, tenantSweep],
  personalData: personalData(
    personalColumns(tenantIdempotencyKeys, {
      subjects: [tenantIdempotencyKeys.actorId],
      // The kept answer can hold anything the route answered (a complaint's text, a name).
      personal: [tenantIdempotencyKeys.body, tenantIdempotencyKeys.headers],
      // `scope` repeats the actor's id inside the primary key, which erasure cannot rewrite row by row;
      // every row is deleted within 24 h by the sweep, erasure or not.
      other: [
        tenantIdempotencyKeys.scope,
        tenantIdempotencyKeys.key,
        tenantIdempotencyKeys.requestHash,
        tenantIdempotencyKeys.state,
        tenantIdempotencyKeys.owner,
        tenantIdempotencyKeys.lockedUntil,
        tenantIdempotencyKeys.createdAt,
      ],
    }),
  ),
});
