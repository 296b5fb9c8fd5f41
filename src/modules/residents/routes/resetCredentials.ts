import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { resetCredentials } from "../residents";
import { CredentialsResetResult } from "../schemas";

export class ResetCredentials extends Endpoint {
  override schema = {
    tags: ["Residents"],
    summary: "Re-send a resident's set-password link (email, else WhatsApp)",
    request: { params: IdParam },
    responses: { 202: json(CredentialsResetResult, "Link issued"), ...problems(401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await resetCredentials({ ctx: tenantCtx(c), id: params.id }), 202);
  }
}
