import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { notificationPreferences } from "../devices";
import { NotificationPreferences } from "../schemas";

export class GetNotificationPreferences extends Endpoint {
  override schema = {
    tags: ["User"],
    summary: "Your notification channels and quiet hours (default: all on, 21:00–07:00 WIB)",
    responses: { 200: json(NotificationPreferences), ...problems(401, 503) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await notificationPreferences({ ctx: platformCtx(c) }));
  }
}
