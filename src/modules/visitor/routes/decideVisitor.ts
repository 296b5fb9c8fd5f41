import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { DecideVisitorInput, Visitor } from "../schemas";
import { decideVisitor } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "Approve or reject a guest registration",
  description:
    "Community staff (sekretaris, bendahara, admin), with `tamu` on. Moves a waiting request menunggu " +
    "→ disetujui (issues the pass, valid from `validFrom` to `validUntil` or by default from an hour " +
    "before the visit to the end of that Jakarta day, and tells the resident) or menunggu → ditolak " +
    "with an optional note. 409 `invalid_transition` when the request was already decided; 400 " +
    "`invalid_window` when the window ends before it starts. Optional If-Match with the " +
    "registration's ETag (412 `precondition_failed`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: DecideVisitorInput } } } },
  responses: { 200: json(Visitor), ...problems(400, 401, 403, 404, 409) },
};

export class DecideVisitor extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await decideVisitor({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
