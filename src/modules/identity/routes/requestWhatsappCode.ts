import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { deferFor } from "../background";
import { Accepted, WhatsappCodeRequestInput } from "../schemas";
import { requestWhatsappCode } from "../whatsappSignIn";

const schema = {
  tags: ["Auth"],
  summary: "Send a sign-in code to a verified WhatsApp number",
  description:
    "Public: signing in, or recovering an account, without email (issue 45). Always 202, whether or " +
    "not the number has an account, so the answer reveals nothing. A six-digit code (single use, valid " +
    "10 minutes, spent by 5 wrong tries; asking again retires the earlier one) is sent by WhatsApp only " +
    "to an active account that has verified this number. Limited per number and per address: 429 " +
    "`rate_limited` with Retry-After.",
  security: [],
  request: { body: { content: { "application/json": { schema: WhatsappCodeRequestInput } } } },
  responses: { 202: json(Accepted, "Accepted"), ...problems(400, 429) },
};

export class RequestWhatsappCode extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    await requestWhatsappCode({ ctx: platformCtx(c), input: body, defer: deferFor(c) });
    return c.json({ status: "accepted" as const }, 202);
  }
}
