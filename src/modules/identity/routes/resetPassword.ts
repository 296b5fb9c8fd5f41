import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { resetPassword } from "../passwordReset";
import { ResetPasswordInput } from "../schemas";

const schema = {
  tags: ["Auth"],
  summary: "Set a new password with a reset or invitation token",
  description:
    "Public: the token is the credential; both a reset link's token and an invitation's (7 days) are " +
    "accepted. The password needs at least 8 characters (400 `password_too_short`). Spends the token, " +
    "sets the password and ends every session of the user, then 204; no session is opened, so sign in " +
    "afterwards. 400 `token_invalid`, `token_expired` or `token_used` for a token that cannot be " +
    "spent; 410 `invitation_retired` for an invitation the admin withdrew or replaced, or whose member " +
    "was removed; 429 `rate_limited` per address.",
  security: [],
  request: { body: { content: { "application/json": { schema: ResetPasswordInput } } } },
  responses: {
    204: { description: "Password set" },
    ...problems(400, 410, 429),
  },
};

export class ResetPassword extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    await resetPassword({ ctx: platformCtx(c), input: body });
    return c.body(null, 204);
  }
}
