import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { resetPassword } from "../passwordReset";
import { ResetPasswordInput } from "../schemas";

export class ResetPassword extends Endpoint {
  override schema = {
    tags: ["Auth"],
    summary: "Set a new password with a reset or invitation token; ends every session of the user",
    security: [],
    request: { body: { content: { "application/json": { schema: ResetPasswordInput } } } },
    responses: {
      204: { description: "Password set" },
      ...problems(400, 429),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    await resetPassword({ ctx: platformCtx(c), input: body });
    return c.body(null, 204);
  }
}
