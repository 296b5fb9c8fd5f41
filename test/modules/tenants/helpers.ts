import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { jobs } from "../../../src/app";
import { CRON, runScheduled } from "../../../src/core/jobs";
import { systemPlatformCtx } from "../../../src/core/tenancy/system";
import worker from "../../../src/index";
import { bindings, operatorToken } from "../../helpers/harness";

export interface ClosedAnswer {
  tenant: { id: string; slug: string; status: string; slot: number | null; closedAt: string | null };
  archiveId: string;
}

/**
 * Closes a tenant through the operator route with an execution context of the test's own, and awaits
 * what the route left for after its answer (the archive, then the wipe), so the test reads the end state.
 */
export async function closeSettled(id: string, confirmSlug: string, token?: string) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://api.test/api/platform/tenants/${id}`, {
      method: "DELETE",
      headers: {
        Authorization: `Bearer ${token ?? (await operatorToken())}`,
        "Content-Type": "application/json",
        "CF-Connecting-IP": "198.18.251.1",
      },
      body: JSON.stringify({ confirmSlug }),
    }),
    bindings,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as ClosedAnswer };
}

/** The closing job alone, run as the hourly trigger would at `at`. */
export function runClosingJob(at: Date) {
  return runScheduled(
    systemPlatformCtx(bindings, "test"),
    jobs.filter((j) => j.name === "tenants.closing"),
    CRON.HOURLY,
    at,
  );
}
