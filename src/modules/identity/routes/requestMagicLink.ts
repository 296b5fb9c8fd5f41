import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { deferFor } from "../background";
import { requestMagicLink } from "../magicLink";
import { Accepted, MagicLinkInput } from "../schemas";

const schema = {
  tags: ["Auth"],
  summary: "Email a one-time sign-in link",
  description:
    "Public. Always 202, whether or not the email has an account, so the answer reveals nothing. A " +
    "link (`{APP_URL}` sign-in link, single use, valid 15 minutes) is emailed only to an active " +
    "account, and, when `tenant` is named, only if the account is a member there. Limited per email " +
    "and per address: 429 `rate_limited` with Retry-After.",
  security: [],
  request: { body: { content: { "application/json": { schema: MagicLinkInput } } } },
  responses: { 202: json(Accepted, "Accepted"), ...problems(400, 429) },
};

export class RequestMagicLink extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    await requestMagicLink({ ctx: platformCtx(c), input: body, defer: deferFor(c) });
    return c.json({ status: "accepted" as const }, 202);
  }
}
