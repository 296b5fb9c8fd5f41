import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json } from "../../../core/http/openapi";
import { checkHealth } from "../service";

const Health = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  checks: z.record(
    z.string(),
    z.object({ status: z.enum(["ok", "fail"]), ms: z.number(), error: z.string().optional() }),
  ),
});

const schema = {
  tags: ["Health"],
  summary: "Check liveness and readiness",
  description:
    "Public. 200 when the platform database answers, 503 otherwise, for load balancers and uptime " +
    "monitors; it names no tenant and reveals nothing else. Operators read the deep view at `GET " +
    "/api/platform/health`.",
  security: [],
  responses: { 200: json(Health), 503: json(Health, "A dependency is failing") },
};

export class GetHealth extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const report = await checkHealth({ ctx: platformCtx(c) });
    return c.json(report, report.status === "ok" ? 200 : 503);
  }
}
