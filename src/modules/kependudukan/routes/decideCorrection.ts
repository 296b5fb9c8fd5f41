import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { decideCorrection } from "../corrections";
import { Correction, DecideCorrectionInput } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "Accept or reject a proposed correction",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Moves diajukan → diterima (the " +
    "value is applied to the member at once, by the same rules as a staff edit) or ditolak with a " +
    "reason, once: 409 `invalid_transition` when already decided; 409 `nik_taken` when an accepted " +
    "NIK belongs to another person. Accepting a `rumah` request grants the resident that house (the " +
    "unit is created if the registry lacks it; the member's person link stays only if that person is " +
    "on a card there; 409 `invalid_transition` when they are no longer a member). Audited.",
  request: {
    params: IdParam,
    body: { content: { "application/json": { schema: DecideCorrectionInput } } },
  },
  responses: { 200: json(Correction), ...problems(400, 401, 403, 404, 409) },
};

export class DecideCorrection extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await decideCorrection({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
