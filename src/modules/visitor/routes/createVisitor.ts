import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreateVisitorInput, Visitor } from "../schemas";
import { createVisitor } from "../service";

export class CreateVisitor extends Endpoint {
  override schema = {
    tags: ["Tamu"],
    summary: "Register a guest (needs a complete profile); starts as menunggu",
    request: { body: { content: { "application/json": { schema: CreateVisitorInput } } } },
    responses: { 201: json(Visitor, "Created"), ...problems(400, 401, 403, 409, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createVisitor({ ctx: tenantCtx(c), input: body }), 201);
  }
}
