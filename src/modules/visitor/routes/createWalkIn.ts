import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { Visitor, WalkInInput } from "../schemas";
import { createWalkIn } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "Register a guest who came to the gate unannounced",
  description:
    "The guard (satpam) and community staff, with `tamu` on. Registers a walk-in (an ojol driver, a " +
    "courier, a guest): name, category, purpose (the category when left out), plate and identity when " +
    "given, and the host's house by block and number (422 `unknown_house` when the registry has none, " +
    "422 `no_host` when nobody there has an account). It waits (menunggu) for the host's household " +
    "(POST /api/visitor/:id/tuan-rumah, from their phone: they are told), staff (PUT /api/visitor/:id), " +
    "or the guard after calling the host (POST /api/visitor/:id/telepon). Once approved, the guard checks " +
    "it in by its id (POST /api/visitor/gate/check-in with `visitorId`). Audited.",
  request: { body: { content: { "application/json": { schema: WalkInInput } } } },
  responses: { 201: json(Visitor, "Created"), ...problems(400, 401, 403, 422) },
};

export class CreateWalkIn extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createWalkIn({ ctx: tenantCtx(c), input: body }), 201);
  }
}
