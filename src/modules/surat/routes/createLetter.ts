import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { suratQuota } from "../limits";
import { CreateLetterInput, Letter } from "../schemas";
import { createLetter } from "../service";

const schema = {
  tags: ["Surat"],
  summary: "Request a letter",
  description:
    "Residents only, with `surat` on. Requests a letter of one type for the caller (`onBehalfOf: " +
    '"self"`, their account linked to their own person on a family card: 409 `person_not_linked` ' +
    "otherwise) or for a member of their household (404 `household_member_not_found` for anyone " +
    "else). The fields are checked against the type's form (400 `invalid_fields`), and the subject's " +
    "registry record must hold what the type prints (409 `registry_record_required`). Needs a " +
    "complete profile (409 `profile_incomplete`). Starts as diajukan. At most 10 requests per member " +
    "per day (429 `rate_limited`).",
  request: { body: { content: { "application/json": { schema: CreateLetterInput } } } },
  responses: { 201: json(Letter, "Created"), ...problems(400, 401, 403, 404, 409, 429) },
};

export class CreateLetter extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const ctx = tenantCtx(c);
    // The per-member quota (limits.ts, ADR 0033), counted once the body is valid.
    await suratQuota(ctx, "surat-create:member");
    return c.json(await createLetter({ ctx, input: body }), 201);
  }
}
