import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { TenantDetail } from "../schemas";
import { getTenant } from "../service";

const schema = {
  tags: ["Platform: tenants"],
  summary: "Get a community",
  description:
    "Platform operators only. One tenant as the list shows it (type, flags, parent RW, admins, slot, " +
    "status, subscription) with what its page needs: the parent RW by name, an RW's linked RTs and " +
    "how many invited admins never signed in (their link can be sent again). A closed community is " +
    "answered too. 404 `tenant_not_found` for an unknown id.",
  request: { params: IdParam },
  responses: { 200: json(TenantDetail), ...problems(400, 401, 403, 404) },
};

export class GetTenant extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getTenant({ ctx: platformCtx(c), id: params.id }));
  }
}
