import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, problems } from "../../../core/http/openapi";
import { listCorrections } from "../corrections";
import { Correction, CorrectionListQuery } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "List proposed registry corrections",
  description:
    "With the registry (`warga`) switched on, on two paths with one answer shape: the secretary and " +
    "admin read every correction residents proposed (`/corrections`, values whole), a resident reads " +
    "the ones they proposed themselves (`/household/corrections`, a proposed NIK masked). Newest " +
    "first, filtered by status (diajukan, diterima, ditolak) and `field`, with the staff's reason once " +
    "decided, paged by `cursor`. `rumah` rows are residents' requests for a house (issue 44: a house " +
    "is granted, not claimed), filed through the profile, with the house asked for in `house`.",
  request: { query: CorrectionListQuery },
  responses: { 200: json(listOf(Correction)), ...problems(400, 401, 403) },
};

/** Staff: every correction. The resident's route (household/corrections) lists their own. */
export class ListCorrections extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listCorrections({ ctx: tenantCtx(c), input: query }));
  }
}

/**
 * The same list on the resident's path (household/corrections). A class of its own because chanfana
 * names each operation after its endpoint class: one class on two paths gave both the operationId
 * `get_ListCorrections`, which OpenAPI forbids (a deep link or a generated client method could not tell
 * them apart).
 */
export class ListHouseholdCorrections extends ListCorrections {}
