import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { unregisterPushToken } from "../devices";
import { PushTokenParam } from "../schemas";

const schema = {
  tags: ["User"],
  summary: "Unregister one of the caller's push tokens",
  description:
    "Any member of the community, for their own token only: 404 `push_token_not_found` for a token " +
    "that is not the caller's. Signing out with `pushToken` does the same. 503 " +
    "`notification_unavailable` when the notification service cannot be reached.",
  request: { params: PushTokenParam },
  responses: { 204: { description: "Removed" }, ...problems(400, 401, 403, 404, 503) },
};

export class UnregisterPushToken extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await unregisterPushToken({ ctx: tenantCtx(c), token: params.token });
    return c.body(null, 204);
  }
}
