import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { registerPushToken, unregisterPushToken } from "../devices";
import { PushDevice, PushTokenInput, PushTokenParam } from "../schemas";

export class RegisterPushToken extends Endpoint {
  override schema = {
    tags: ["User"],
    summary: "Register this device's push token for the signed-in user (moves it from another account)",
    request: { body: { content: { "application/json": { schema: PushTokenInput } } } },
    responses: { 200: json(PushDevice, "Registered"), ...problems(400, 401, 403, 503) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await registerPushToken({ ctx: tenantCtx(c), input: body }));
  }
}

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
