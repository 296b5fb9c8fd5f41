import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { requireCompleteProfile } from "../../identity/service";
import { proposeCorrection } from "../corrections";
import { Correction, CorrectionInput } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "Propose a correction to the household's registry data",
  description:
    "Residents only, with `warga` on. Proposes a new value for one field of a member of the caller's " +
    "own household (404 `household_member_not_found` for anyone else); the value is checked by the " +
    "rules of a staff edit (400 `invalid_input`). Nothing changes until the secretary or admin " +
    "accepts it. Needs a complete profile (409 `profile_incomplete`).",
  request: { body: { content: { "application/json": { schema: CorrectionInput } } } },
  responses: { 201: json(Correction, "Proposed"), ...problems(400, 401, 403, 404, 409) },
};

export class ProposeCorrection extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const ctx = tenantCtx(c);
    const { unitId } = await requireCompleteProfile({ ctx });
    return c.json(await proposeCorrection({ ctx, unitId, input: body }), 201);
  }
}
