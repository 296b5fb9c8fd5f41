import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { jakartaDay } from "../../../core/time";
import { DataExport, exportPersonalData } from "../dataExport";

const schema = {
  tags: ["User"],
  summary: "Download everything the platform holds about the caller",
  description:
    "Any signed-in user, for themselves (UU 27/2022): one JSON file with the account, memberships, " +
    "sign-in sessions (no secrets), sign-in links, applications, support tickets, notification " +
    "preferences, and for each community the rows that are theirs and the rows that name them. At " +
    "most 5 per hour (429 `rate_limited`). Recorded in each community's audit log. 503 " +
    "`notification_unavailable` when the notification service cannot be read: a partial export is " +
    "never answered.",
  responses: { 200: json(DataExport), ...problems(401, 429, 503) },
};

export class GetDataExport extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const ctx = platformCtx(c);
    const body = await exportPersonalData({ ctx });
    return c.json(body, 200, {
      "Content-Disposition": `attachment; filename="warga-data-saya-${jakartaDay(ctx.now())}.json"`,
      "Cache-Control": "no-store",
    });
  }
}
