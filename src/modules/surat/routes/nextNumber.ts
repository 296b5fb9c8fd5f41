import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems, tenantProblems } from "../../../core/http/openapi";
import { nextNumber } from "../numbering";
import { NextNumber, NextNumberQuery } from "../schemas";

const schema = {
  tags: ["Surat"],
  summary: "Suggest the next letter number",
  description:
    "Staff (bendahara, sekretaris, admin), with `surat` on. Formats the next number of the year's sequence with the " +
    "community's number format (the sequence restarts every year); nothing is reserved, the number is " +
    "taken when a letter is saved with it (finishing a letter without a number assigns this one). 409 " +
    "`letter_settings_incomplete` until the secretary or admin has completed the letter settings.",
  request: { query: NextNumberQuery },
  // 409 letter_settings_incomplete: the number format or letterhead needs a setting that is unset.
  responses: { 200: json(NextNumber), ...tenantProblems, ...problems(409) },
};

export class GetNextNumber extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await nextNumber({ ctx: tenantCtx(c), input: query }));
  }
}
