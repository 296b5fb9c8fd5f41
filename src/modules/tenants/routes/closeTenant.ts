import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { closeTenant } from "../closing";
import { ClosedTenant, CloseTenantInput } from "../schemas";

const schema = {
  tags: ["Platform: tenants"],
  summary: "Close a community",
  description:
    "Platform operators only; the body repeats the slug (`confirmSlug`, 400 `confirm_slug_mismatch` " +
    "otherwise). The community becomes ditutup at once: its routes, public pages and sign-in answer " +
    "410, every session in it ends, it leaves its RW and its RTs leave it. Answers 202 with the final " +
    "archive's id; the archive is built in the background, and only once it is ready is the database " +
    "slot emptied and returned to the pool. 410 `tenant_closed` when already closed; 409 " +
    "`invalid_transition` while still provisioning, 409 `archive_not_ready` while an export or import " +
    "of it is under way. Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: CloseTenantInput } } } },
  responses: {
    202: json(ClosedTenant, "Closed; the archive and the wipe follow"),
    ...problems(400, 401, 403, 404, 409, 410),
  },
};

export class CloseTenant extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
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
