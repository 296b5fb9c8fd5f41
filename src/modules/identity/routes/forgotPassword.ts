import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { deferFor } from "../background";
import { forgotPassword } from "../passwordReset";
import { Accepted, ForgotPasswordInput } from "../schemas";

const schema = {
  tags: ["Auth"],
  summary: "Email a password reset link",
  description:
    "Public. Always 202, whether or not the email has an account. An active account is emailed a link " +
    "to the reset page (the web app's `{CLIENT_URL}/reset-password?token=…`, single use, valid 1 hour); asking again " +
    "retires the earlier link. Limited per email and per address: 429 `rate_limited` with " +
    "Retry-After.",
  security: [],
  request: { body: { content: { "application/json": { schema: ForgotPasswordInput } } } },
  responses: { 202: json(Accepted, "Accepted"), ...problems(400, 429) },
};

export class ForgotPassword extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    await forgotPassword({ ctx: platformCtx(c), input: body, defer: deferFor(c) });
    return c.json({ status: "accepted" as const }, 202);
  }
}
