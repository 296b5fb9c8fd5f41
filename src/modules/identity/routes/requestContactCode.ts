import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { requestContactCode } from "../contacts";
import { ContactCodeRequest, ContactCodeSent } from "../schemas";

const schema = {
  tags: ["User"],
  summary: "Send a one-time code to the caller's own WhatsApp number or email",
  description:
    "Any signed-in user. Sends six digits (valid 10 minutes, single use) to the number on the profile " +
    "or the account's email; a new code retires the earlier one. Limited per account, per contact " +
    "and per community (429). 409 `no_contact` when there is no such contact, " +
    "`contact_already_verified` when it is proven already, `whatsapp_taken` when another account " +
    "has proven the number.",
  request: { body: { content: { "application/json": { schema: ContactCodeRequest } } } },
  responses: { 202: json(ContactCodeSent), ...problems(400, 401, 404, 409, 429, 503) },
};

export class RequestContactCode extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await requestContactCode({ ctx: platformCtx(c), input: body }), 202);
  }
}
