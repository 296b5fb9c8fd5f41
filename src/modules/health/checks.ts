import { sql } from "drizzle-orm";
import type { PlatformCtx } from "../../core/context";
import { log } from "../../core/http/log";

interface Check {
  status: "ok" | "fail";
  ms: number;
  error?: string;
}

async function timed(fn: () => Promise<unknown>): Promise<Check> {
  const started = Date.now();
  try {
    await fn();
    return { status: "ok", ms: Date.now() - started };
  } catch (error) {
    log("warn", "health_check_failed", { error: String(error) });
    return { status: "fail", ms: Date.now() - started, error: "unreachable" };
  }
}

export async function checkHealth({ ctx }: { ctx: PlatformCtx }) {
  const checks = {
    platformDb: await timed(() => ctx.platform.run(sql`SELECT 1`)),
  };
  const ok = Object.values(checks).every((c) => c.status === "ok");
  return { status: ok ? ("ok" as const) : ("degraded" as const), version: ctx.config.VERSION, checks };
}
