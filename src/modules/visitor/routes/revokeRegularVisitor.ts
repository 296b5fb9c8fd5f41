import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { revokeRegular } from "../regular";
import { RegularVisitor } from "../schemas";

const schema = {
  tags: ["Tamu"],
  summary: "Revoke a regular visitor's card",
  description:
    "The household the card belongs to, or staff, with `tamu` on (404 for another household's card). The " +
    "gate admits it no more (its check-in answers `pass_revoked`); a visitor already inside still leaves. " +
    "Idempotent. " +
    "Audited.",
  request: { params: IdParam },
  responses: { 200: json(RegularVisitor), ...problems(401, 403, 404) },
};

export class RevokeRegularVisitor extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await revokeRegular({ ctx: tenantCtx(c), id: params.id }));
  }
}
