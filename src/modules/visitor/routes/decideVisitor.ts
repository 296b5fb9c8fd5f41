import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { DecideVisitorInput, Visitor } from "../schemas";
import { decideVisitor } from "../service";

export class DecideVisitor extends Endpoint {
  override schema = {
    tags: ["Tamu"],
    summary: "Approve (issues the pass, tells the resident) or reject a waiting request",
    request: { params: IdParam, body: { content: { "application/json": { schema: DecideVisitorInput } } } },
    responses: { 200: json(Visitor), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await decideVisitor({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
