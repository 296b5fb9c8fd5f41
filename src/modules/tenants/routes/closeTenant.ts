import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { closeTenant } from "../closing";
import { ClosedTenant, CloseTenantInput } from "../schemas";

export class CloseTenant extends Endpoint {
  override schema = {
    tags: ["Platform: tenants"],
    summary:
      "Close a community: it stops serving at once (410), its final archive is written, then its database slot is emptied and returned to the pool",
    request: { params: IdParam, body: { content: { "application/json": { schema: CloseTenantInput } } } },
    responses: {
      202: json(ClosedTenant, "Closed; the archive and the wipe follow"),
      ...problems(400, 401, 403, 404, 409, 410),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const result = await closeTenant({
      ctx: platformCtx(c),
      id: params.id,
      input: body,
      after: (work) => c.executionCtx.waitUntil(work),
    });
    return c.json(result, 202);
  }
}
