import type { Bindings } from "../../core/env";
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

export async function checkHealth(env: Bindings, version: string) {
  const checks = {
    platformDb: await timed(() => env.PLATFORM_DB.prepare("SELECT 1").first()),
  };
  const ok = Object.values(checks).every((c) => c.status === "ok");
  return { status: ok ? ("ok" as const) : ("degraded" as const), version, checks };
}
