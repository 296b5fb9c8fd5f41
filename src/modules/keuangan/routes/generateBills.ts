import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { generateBills } from "../iuran/generate";
import { GenerateInput, GenerateResult } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Issue the period's bills",
  description:
    "The treasurer and admin. Issues one bill per unit (or KK) per active dues type for the period " +
    "(`YYYY-MM`), at the amount in force then. Running it again, or twice at once, creates nothing " +
    "twice: the answer counts the bills `created` and those already `existing`. Audited.",
  request: { body: { content: { "application/json": { schema: GenerateInput } } } },
  responses: { 200: json(GenerateResult), ...problems(400, 401, 403) },
};

export class GenerateBills extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await generateBills({ ctx: tenantCtx(c), period: body.period }));
  }
}
