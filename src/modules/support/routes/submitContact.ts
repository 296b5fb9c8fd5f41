import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { submitContact } from "../public";
import { ContactAccepted, ContactInput } from "../schemas";

const schema = {
  tags: ["Support (public)"],
  summary: "Send the marketing site's contact form",
  description:
    "Public, no sign-in, guarded by Cloudflare Turnstile (400 `turnstile_required` or " +
    "`turnstile_failed`; 503 `turnstile_unavailable`). The message becomes a homepage ticket (202): " +
    "the team is emailed, and the sender gets an automatic reply with a link to follow the ticket. " +
    "Limited per address and per email (429 `rate_limited`).",
  security: [],
  request: { body: { content: { "application/json": { schema: ContactInput } } } },
  responses: { 202: json(ContactAccepted, "Received"), ...problems(400, 429, 503) },
};

export class SubmitContact extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await submitContact({ ctx: platformCtx(c), input: body }), 202);
  }
}
