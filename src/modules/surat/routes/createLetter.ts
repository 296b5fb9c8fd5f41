import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { suratQuota } from "../limits";
import { CreateLetterInput, Letter } from "../schemas";
import { createLetter } from "../service";

export class CreateLetter extends Endpoint {
  override schema = {
    tags: ["Surat"],
    summary:
      "Request a letter for oneself or a household member (needs a complete profile); starts as diajukan",
    request: { body: { content: { "application/json": { schema: CreateLetterInput } } } },
    responses: { 201: json(Letter, "Created"), ...problems(400, 401, 403, 404, 409, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const ctx = tenantCtx(c);
    // The per-member quota (limits.ts, ADR 0033), counted once the body is valid.
    await suratQuota(ctx, "surat-create:member");
    return c.json(await createLetter({ ctx, input: body }), 201);
  }
}
