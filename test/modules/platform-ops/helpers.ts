import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { vi } from "vitest";
import { jobs } from "../../../src/app";
import { CRON, runScheduled } from "../../../src/core/jobs";
import { systemPlatformCtx } from "../../../src/core/tenancy/system";
import worker from "../../../src/index";
import { pdfRendering } from "../../../src/platform/pdf";
import { bindings, operatorToken, type TestTenant } from "../../helpers/harness";

/** The archive jobs alone, run as the hourly trigger would at `at`. */
export function runArchiveJob(at: Date) {
  return runScheduled(
    systemPlatformCtx(bindings, "test"),
    jobs.filter((j) => j.name === "platform-ops.archives"),
    CRON.HOURLY,
    at,
  );
}

/**
 * Asks for an export (tenant route or operator route) through the Worker with an execution context of
 * the test's own, and awaits the background build the route scheduled with `waitUntil`.
 */
export async function requestAndSettle(path: string, token: string) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://api.test${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": "198.18.250.1" },
    }),
    bindings,
    ctx,
  );
  const body = (await res.json()) as { archive: { id: string; status: string }; created: boolean };
  await waitOnExecutionContext(ctx);
  return { status: res.status, body };
}

/**
 * A ready export of the admin's tenant. When another request's export was already under way (its
 * background run not awaited by anyone), the hourly job is run past that run's lease to finish it.
 */
export async function readyExport(adminToken: string): Promise<string> {
  return withStandInPdf(async () => {
    const { status, body } = await requestAndSettle("/api/archives", adminToken);
    if (status !== 202) {
      throw new Error(`export request: ${status} ${JSON.stringify(body)}`);
    }
    if (!body.created) {
      await runArchiveJob(new Date(Date.now() + 60 * 60 * 1000));
    }
    return body.archive.id;
  });
}

/**
 * Runs `work` with a stand-in PDF renderer, so an archive's handover pack (which prints the finished
 * letters, issue 45) launches no browser: a walk that only needs an archive to exist stays fast. A test
 * that already replaced the renderer (to count or fail its prints) keeps its own.
 */
export async function withStandInPdf<T>(work: () => Promise<T>): Promise<T> {
  if (vi.isMockFunction(pdfRendering.create)) {
    return work();
  }
  const spy = vi.spyOn(pdfRendering, "create").mockImplementation(() => ({
    render: async () => new TextEncoder().encode("%PDF-1.7\n% stand-in\n%%EOF\n"),
  }));
  try {
    return await work();
  } finally {
    spy.mockRestore();
  }
}

/** Imports an archive into `target` as the operator: the status, headers and parsed body. */
export async function importZip(target: TestTenant, zip: Uint8Array, headers: Record<string, string> = {}) {
  const res = await exports.default.fetch(
    new Request(`http://api.test/api/platform/tenants/${target.id}/imports`, {
      method: "POST",
      headers: {
        ...headers,
        Authorization: `Bearer ${await operatorToken()}`,
        "Content-Type": "application/zip",
        "CF-Connecting-IP": "198.18.250.2",
      },
      body: zip,
    }),
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : null };
}
