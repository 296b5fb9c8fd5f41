import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { VoteRecord } from "../schemas";
import { listVotes } from "../service";

const schema = {
  tags: ["Musyawarah"],
  summary: "List who voted in a poll",
  description:
    "Staff (bendahara, sekretaris, admin), with `musyawarah` on. Every ballot of a poll (none for a draft): who voted " +
    "and when, and what they chose unless the poll is anonymous (anonymous polls record who voted, " +
    "never what).",
  request: { params: IdParam },
  responses: {
    200: json(z.object({ anonymous: z.boolean(), items: z.array(VoteRecord) })),
    ...tenantProblems,
  },
};

export class ListVotes extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listVotes({ ctx: tenantCtx(c), id: params.id }));
  }
}
