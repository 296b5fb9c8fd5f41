import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error: plain .mjs helpers shared with the benchmark scripts.
import { declaredSlots, migrateAndSeed } from "../../scripts/bench/d1.mjs";
// @ts-expect-error: a plain .mjs helper shared with the benchmark scripts.
import { startWorkerd, workerdAvailable } from "../../scripts/lib/workerd.mjs";

/**
 * The API the e2e files drive: the deploy bundle (`wrangler deploy --dry-run`) on workerd through
 * Miniflare, over fresh local databases in a temporary directory, migrated and given the demo seed
 * (README's demo accounts) through the server's own bindings (scripts/bench/d1.mjs). One workerd for all
 * of it, where `wrangler d1 migrations apply` and `wrangler dev` start one per command: tens of seconds
 * on a busy 2-core machine, not minutes.
 */
export interface E2eServer {
  url: string;
  /** The Miniflare instance: its bindings (`getD1Database`) for a test that reads or writes directly. */
  mf: unknown;
  /** Stops workerd and removes the databases. */
  stop: () => Promise<void>;
  /** What the notification service was sent so far (only with `outbox`; else always empty). */
  outbox: () => OutboxMessage[];
  /** Resolves when the notification service is sent its next request. */
  nextArrival: () => Promise<void>;
}

/** One request the Worker made to the notification service's stand-in (scripts/lib/workerd.mjs). */
export interface OutboxMessage {
  service: string;
  method: string;
  /** e.g. `/v1/email`, `/v1/whatsapp`. */
  path: string;
  /** The JSON it sent: `to`, `template` and `data` (with the links) for an email, and so on. */
  body: unknown;
}

export interface E2eServerOptions {
  /**
   * Serve public/ as a deploy does (the web app, Swagger UI's files): the asset router in front of the
   * Worker with wrangler.toml's `not_found_handling` and `run_worker_first`, and public/_headers. The
   * app must be built first (scripts/build-web.mjs).
   */
  assets?: boolean;
  /** Keep the Browser Rendering binding (letter PDFs); only when Chromium is installed. */
  browser?: boolean;
  /** Keep what the notification service is sent, to follow an emailed link (`outbox()`). */
  outbox?: boolean;
}

/**
 * Starts the seeded server. The answer is the server, or why this machine cannot run one (workerd not
 * installed, the runtime not starting): a reason to skip. A migration or the seed failing is a failure of
 * the project, not of the machine: it throws, the server already stopped.
 */
export async function startSeededServer(
  opts: E2eServerOptions = {},
): Promise<{ server: E2eServer; unavailable?: undefined } | { server?: undefined; unavailable: string }> {
  if (!workerdAvailable()) {
    return { unavailable: "workerd is not installed (npm install)" };
  }
  const persistTo = mkdtempSync(join(tmpdir(), "warga-e2e-"));
  const remove = () => rmSync(persistTo, { recursive: true, force: true });
  let started: {
    url: string;
    mf: unknown;
    stop: () => Promise<void>;
    outbox: () => OutboxMessage[];
    nextArrival: () => Promise<void>;
  };
  try {
    started = await startWorkerd({
      persistTo,
      assets: opts.assets ?? false,
      browser: opts.browser ?? false,
      outbox: opts.outbox ?? false,
      // A Web Push key, so the app offers notifications on the device (RFC 8291's example public key).
      vars: {
        LOG_LEVEL: "warn",
        VAPID_PUBLIC_KEY:
          "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
      },
    });
  } catch (error) {
    remove();
    return { unavailable: `the API could not start: ${error instanceof Error ? error.message : error}` };
  }
  const server: E2eServer = {
    url: started.url,
    mf: started.mf,
    outbox: started.outbox,
    nextArrival: started.nextArrival,
    stop: async () => {
      await started.stop();
      remove();
    },
  };
  try {
    await migrateAndSeed(started.mf, declaredSlots());
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { server };
}

/** What the journeys use of a local D1 binding (Miniflare's `getD1Database`). */
interface LocalD1 {
  prepare: (query: string) => {
    bind: (...values: unknown[]) => { run: () => Promise<{ meta: { changes?: number } }> };
  };
}

/**
 * A journey's seam, on the harness side only: sets when one of the journey's own support tickets was made
 * (`createdAt`, an ISO instant), in the platform database through the server's local binding. No route
 * sets a ticket's creation time (the API stamps it), so a journey about a day's boundary (a ticket made at
 * 23:30 in Jakarta) back-dates the ticket it has just opened here; nothing of it is in the deployed Worker.
 */
export async function setSupportTicketCreatedAt(server: E2eServer, id: string, createdAt: string) {
  if (Number.isNaN(Date.parse(createdAt)) || !createdAt.endsWith("Z")) {
    throw new Error(`setSupportTicketCreatedAt: ${createdAt} is not an ISO instant in UTC`);
  }
  const mf = server.mf as { getD1Database: (binding: string) => Promise<LocalD1> };
  const db = await mf.getD1Database("PLATFORM_DB");
  const done = await db
    .prepare("UPDATE support_tickets SET created_at = ?1 WHERE id = ?2")
    .bind(createdAt, id)
    .run();
  if (done.meta.changes !== 1) {
    throw new Error(`setSupportTicketCreatedAt: no support ticket ${id}`);
  }
}
