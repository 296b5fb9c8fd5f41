import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { walkInPhoto } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "Get a walk-in's photo",
  description:
    "With `tamu` on: the guard, staff, and the host's household (every resident account at the house " +
    "the walk-in came to). Anyone else, and a walk-in without a photo, gets 404. Served with an ETag " +
    "(304 for If-None-Match) and private caching.",
  request: { params: IdParam },
  responses: {
    200: { description: "The image", content: { "image/*": { schema: z.string() } } },
    304: { description: "Not modified (If-None-Match matched the ETag)" },
    ...problems(401, 403, 404),
  },
};

export class GetWalkInPhoto extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return walkInPhoto({
      ctx: tenantCtx(c),
      id: params.id,
      ifNoneMatch: c.req.header("If-None-Match") ?? null,
    });
  }
}
