import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { setNotificationPreferences } from "../devices";
import { NotificationPreferences } from "../schemas";

const schema = {
  tags: ["User"],
  summary: "Set the caller's notification preferences",
  description:
    "Any signed-in user. Replaces the channels and quiet hours; a message that falls in the quiet " +
    "hours waits until they end, except an urgent one. Preferences belong to the person, across all " +
    "their communities. 503 `notification_unavailable` when the notification service cannot be " +
    "reached.",
  request: { body: { content: { "application/json": { schema: NotificationPreferences } } } },
  responses: { 200: json(NotificationPreferences), ...problems(400, 401, 503) },
};

export class PutNotificationPreferences extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await setNotificationPreferences({ ctx: platformCtx(c), input: body }));
  }
}
