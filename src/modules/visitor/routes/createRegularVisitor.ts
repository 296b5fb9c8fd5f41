import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createRegular } from "../regular";
import { RegularVisitor, RegularVisitorInput } from "../schemas";

const schema = {
  tags: ["Tamu"],
  summary: "Issue a recurring pass for a regular visitor",
  description:
    "Residents and staff, with `tamu` on (a complete profile: 409 `profile_incomplete`). A card for someone who " +
    "comes to the caller's house regularly (domestic help, a driver): the days of the week (ISO, 1 " +
    "Monday … 7 Sunday) and the hours (`fromTime`–`untilTime`, Asia/Jakarta) the gate admits them, until " +
    "revoked or its last day (`validUntil`). Staff (bendahara, sekretaris, admin) issue one for a " +
    "household by naming its house (`block` and `number`; 422 `unknown_house` when the registry has " +
    "none); a resident naming a house gets 403. Audited.",
  request: { body: { content: { "application/json": { schema: RegularVisitorInput } } } },
  responses: { 201: json(RegularVisitor, "Created"), ...problems(400, 401, 403, 409, 422) },
};

export class CreateRegularVisitor extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createRegular({ ctx: tenantCtx(c), input: body }), 201);
  }
}
