import type { Context } from "hono";
import { ListQuery } from "../../../core/db/paging";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { listOf, tenantProblems } from "../../../core/http/openapi";
import { PlateDuplicate } from "../schemas";
import { listPlateDuplicates } from "../vehicles";

const schema = {
  tags: ["Kependudukan"],
  summary: "List vehicles registered twice under differently written plates",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Plates are compared without " +
    "spaces, dashes or case (`B 1234 XYZ` is `b1234xyz` is `B-1234-XYZ`). Vehicles registered before " +
    "that rule under another spelling of a plate another vehicle already had are kept, flagged, and " +
    "listed here, oldest first, each with the other vehicles holding the plate; correcting the plate " +
    "(PUT the vehicle) or deleting one of them takes it off the list. Paged by `cursor`.",
  request: { query: ListQuery },
  responses: {
    200: {
      description: "Success",
      content: { "application/json": { schema: listOf(PlateDuplicate) } },
    },
    ...tenantProblems,
  },
};

export class ListPlateDuplicates extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listPlateDuplicates({ ctx: tenantCtx(c), input: query }));
  }
}
