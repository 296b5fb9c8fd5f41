import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { verifyContactCode } from "../contacts";
import { ContactCodeInput, ContactVerified } from "../schemas";

const schema = {
  tags: ["User"],
  summary: "Prove the caller's WhatsApp number or email with the code sent to it",
  description:
    "Any signed-in user. The newest code of the channel, if it still works: five wrong codes spend it. " +
    "From then on invitations, approved applications and sign-in match the contact. 400 " +
    "`contact_code_invalid` for a wrong, expired or used code (ask for a new one), 409 " +
    "`whatsapp_taken` when another account has proven the number. Audited.",
  request: { body: { content: { "application/json": { schema: ContactCodeInput } } } },
  responses: { 200: json(ContactVerified), ...problems(400, 401, 404, 409) },
};

export class VerifyContact extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await verifyContactCode({ ctx: platformCtx(c), input: body }));
  }
}
