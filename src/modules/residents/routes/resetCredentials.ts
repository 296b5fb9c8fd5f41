import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { resetCredentials } from "../residents";
import { CredentialsResetResult } from "../schemas";

const schema = {
  tags: ["Residents"],
  summary: "Send a resident a new set-password link",
  description:
    "Secretary and admin, with `warga` on. Sends the resident (by user id) a new set-password link, " +
    "by email, else WhatsApp; earlier invitation and reset links stop working. Answers 202 with the " +
    "channel used, never a token. 409 `no_contact` for a resident with neither email nor WhatsApp; " +
    "404 for someone who is not a resident here. Audited.",
  request: { params: IdParam },
  responses: { 202: json(CredentialsResetResult, "Link issued"), ...problems(401, 403, 404, 409) },
};

export class ResetCredentials extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await resetCredentials({ ctx: tenantCtx(c), id: params.id }), 202);
  }
}
