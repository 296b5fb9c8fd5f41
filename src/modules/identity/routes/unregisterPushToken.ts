import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { unregisterPushToken } from "../devices";
import { PushTokenParam } from "../schemas";

export class UnregisterPushToken extends Endpoint {
  override schema = {
    tags: ["User"],
    summary: "Forget one of your push tokens (logout also does it)",
    request: { params: PushTokenParam },
    responses: { 204: { description: "Removed" }, ...problems(400, 401, 403, 404, 503) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await unregisterPushToken({ ctx: tenantCtx(c), token: params.token });
    return c.body(null, 204);
  }
}
