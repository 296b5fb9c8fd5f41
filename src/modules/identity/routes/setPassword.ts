import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { setOwnPassword } from "../passwordReset";
import { SetPasswordInput } from "../schemas";

const schema = {
  tags: ["User"],
  summary: "Set or change the caller's own password",
  description:
    "Any signed-in user, for their own account (issue 45). An account without a password (it signs in " +
    "by a WhatsApp code or an officer's sign-in code; `hasPassword: false` in `GET /api/user/me`) sets " +
    "one with `newPassword` alone. One with a password changes it with `currentPassword` too (400 " +
    "`current_password_invalid` when it is missing or wrong, limited per account: 429 `rate_limited`), " +
    "and every other session of the account ends. 400 `password_too_short` under 8 characters. Audited " +
    "without either password.",
  request: { body: { content: { "application/json": { schema: SetPasswordInput } } } },
  responses: { 204: { description: "Password set" }, ...problems(400, 401, 429) },
};

export class SetPassword extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    await setOwnPassword({ ctx: platformCtx(c), input: body });
    return c.body(null, 204);
  }
}
