import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { submitContact } from "../public";
import { ContactAccepted, ContactInput } from "../schemas";

export class SubmitContact extends Endpoint {
  override schema = {
    tags: ["Support (public)"],
    summary:
      "The marketing site's contact form: becomes a homepage ticket; the team and the sender are emailed",
    security: [],
    request: { body: { content: { "application/json": { schema: ContactInput } } } },
    responses: { 202: json(ContactAccepted, "Received"), ...problems(400, 429, 503) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await submitContact({ ctx: platformCtx(c), input: body }), 202);
  }
}
