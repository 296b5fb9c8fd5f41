import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { deferFor } from "../background";
import { forgotPassword } from "../passwordReset";
import { Accepted, ForgotPasswordInput } from "../schemas";

export class ForgotPassword extends Endpoint {
  override schema = {
    tags: ["Auth"],
    summary: "Email a password reset link (always 202, whether or not the account exists)",
    security: [],
    request: { body: { content: { "application/json": { schema: ForgotPasswordInput } } } },
    responses: { 202: json(Accepted, "Accepted"), ...problems(400, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    await forgotPassword({ ctx: platformCtx(c), input: body, defer: deferFor(c) });
    return c.json({ status: "accepted" as const }, 202);
  }
}
