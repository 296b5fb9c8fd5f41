import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { LogoutInput } from "../schemas";
import { logout } from "../sessions";

export class Logout extends Endpoint {
  override schema = {
    tags: ["Auth"],
    summary: "Sign out",
    description:
      "Public: the refresh token is the credential (the access token may have expired). Ends that " +
      "token's session, so neither token of it works any longer, and unregisters `pushToken` from push " +
      "notifications when given (a notification service outage does not stop the sign-out). Always 204, " +
      "also for an unknown refresh token, for which nothing is unregistered.",
    security: [],
    request: { body: { content: { "application/json": { schema: LogoutInput } } } },
    responses: {
      204: { description: "Signed out (also for an unknown or already ended session)" },
      ...problems(400),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    await logout({ ctx: platformCtx(c), input: body });
    return c.body(null, 204);
  }
}
