import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { notificationPreferences } from "../devices";
import { NotificationPreferences } from "../schemas";

const schema = {
  tags: ["User"],
  summary: "Get the caller's notification preferences",
  description:
    "Any signed-in user. Answers the channels (push, WhatsApp, email) and the quiet hours; the " +
    "default is every channel on and quiet from 21:00 to 07:00 WIB. 503 `notification_unavailable` " +
    "when the notification service cannot be reached.",
  responses: { 200: json(NotificationPreferences), ...problems(401, 503) },
};

export class GetNotificationPreferences extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await notificationPreferences({ ctx: platformCtx(c) }));
  }
}
