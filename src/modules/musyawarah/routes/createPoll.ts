import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreatePollInput, Poll } from "../schemas";
import { createPoll } from "../service";

export class CreatePoll extends Endpoint {
  override schema = {
    tags: ["Musyawarah"],
    summary: "Create a poll (normally as draft; status aktif publishes at once)",
    request: { body: { content: { "application/json": { schema: CreatePollInput } } } },
    responses: { 201: json(Poll, "Created"), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createPoll({ ctx: tenantCtx(c), input: body }), 201);
  }
}
