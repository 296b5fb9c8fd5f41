import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { erasePerson } from "../erasure";

const Params = z.object({ id: z.string().min(1).max(64) });
const Body = z.object({ userId: z.string().min(1).max(64).describe("The person's user id") });
const Result = z.object({
  reference: z.string().describe("The anonymous reference that now stands for the person in this tenant"),
  rows: z.record(z.string(), z.number().int()).describe("Rows changed, by table and column"),
});

const schema = {
  tags: ["Platform: operations"],
  summary: "Erase one person's personal data from a community",
  description:
    "Platform operators only. Under UU 27/2022: every personal column the modules classify (names, " +
    "NIKs, numbers, text the person wrote) is blanked for that person in the tenant's database; " +
    "records stay, with an anonymous reference in their place, so books and logs still add up. " +
    "Audited.",
  request: { params: Params, body: { content: { "application/json": { schema: Body } } } },
  responses: { 200: json(Result), ...problems(400, 401, 403, 404) },
};

export class ErasePerson extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await erasePerson({ ctx: platformCtx(c), id: params.id, input: body }));
  }
}
