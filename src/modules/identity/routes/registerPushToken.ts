import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { registerPushToken } from "../devices";
import { PushDevice, PushTokenInput } from "../schemas";

const schema = {
  tags: ["User"],
  summary: "Register this device for push notifications",
  description:
    "Any member of the community. Registers the device's FCM token (Android, iOS) or the web app's Web " +
    "Push subscription (`platform: web`, subscribed with the key of GET /api/user/push-tokens/vapid-key) " +
    "for the caller; a device registered to another account moves to this one. The answer's `token` " +
    "unregisters it. 503 `notification_unavailable` when the notification service cannot be reached.",
  request: { body: { content: { "application/json": { schema: PushTokenInput } } } },
  responses: { 200: json(PushDevice, "Registered"), ...problems(400, 401, 403, 503) },
};

export class RegisterPushToken extends Endpoint {
  /** Registering a device again is the same upsert; its token is never kept in the idempotency store. */
  static override credentialAnswer = "rerun" as const;

  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await registerPushToken({ ctx: tenantCtx(c), input: body }));
  }
}
