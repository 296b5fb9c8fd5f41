import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { WatchSummary } from "../schemas";
import { watchSummary } from "../watch";

const schema = {
  tags: ["Watch"],
  summary: "Get the smartwatch summary",
  description:
    "Members. Everything the watch app shows in one answer under 2 KB: the caller's dues owed, the 3 " +
    "latest news titles and the active campaigns. Cacheable by the client for 60 seconds (private: it " +
    "is the caller's own).",
  responses: { 200: json(WatchSummary), ...problems(401, 403) },
};

export class GetWatchSummary extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const body = await watchSummary({ ctx: tenantCtx(c) });
    c.header("Cache-Control", "private, max-age=60");
    c.header("Vary", "Authorization");
    return c.json(body);
  }
}
