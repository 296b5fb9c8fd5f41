import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { listOf, tenantProblems } from "../../../core/http/openapi";
import { Unit, UnitFeatureCollection, UnitListQuery } from "../schemas";
import { listUnits, unitsGeoJson } from "../service";

const schema = {
  tags: ["Kependudukan"],
  summary: "List housing units",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Housing units, filtered by block, " +
    "paged by `cursor`. With `format=geojson` or `Accept: application/geo+json` the answer is a " +
    "GeoJSON FeatureCollection of the units that have coordinates, for a map.",
  request: { query: UnitListQuery },
  responses: {
    200: {
      description: "Success",
      content: {
        "application/json": { schema: listOf(Unit) },
        "application/geo+json": { schema: UnitFeatureCollection },
      },
    },
    ...tenantProblems,
  },
};

export class ListUnits extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    const ctx = tenantCtx(c);
    const geo =
      query.format === "geojson" ||
      (query.format === undefined && (c.req.header("Accept") ?? "").includes("application/geo+json"));
    if (geo) {
      return c.body(JSON.stringify(await unitsGeoJson({ ctx, block: query.block })), 200, {
        "Content-Type": "application/geo+json",
      });
    }
    return c.json(await listUnits({ ctx, input: query }));
  }
}
