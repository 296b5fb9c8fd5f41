// Benchmark entry: the real API Worker plus a bare Hono route in the same isolate, so the two are
// measured on the same runtime in the same run. Never deployed.
import { Hono } from "hono";
import worker from "../../src/index";

const bare = new Hono();
bare.get("/__bare", (c) => c.json({ ok: true }));

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext) {
    if (new URL(request.url).pathname === "/__bare") {
      return bare.fetch(request, env, ctx);
    }
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
