import type { Context } from "hono";
import type { RouteEnv } from "../../core/env";
import { log } from "../../core/http/log";

/**
 * Work done after the answer is sent. The "always 202" routes (magic link, forgot password) look the
 * account up and send in here, so a known and an unknown email get the same answer after the same time:
 * nothing in the response depends on whether the account exists.
 */
export type Defer = (name: string, task: () => Promise<void>) => void;

export function deferFor(c: Context<RouteEnv>): Defer {
  const requestId = c.get("requestId");
  return (name, task) => {
    c.executionCtx.waitUntil(
      task().catch((error: unknown) => {
        log("error", "background_task_failed", {
          requestId,
          task: name,
          error: error instanceof Error ? error.message : String(error),
        });
      }),
    );
  };
}
