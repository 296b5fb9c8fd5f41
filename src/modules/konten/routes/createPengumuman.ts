import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createPengumuman } from "../pengumuman";
import { CreatePengumumanInput, Pengumuman } from "../schemas";

export class CreatePengumuman extends Endpoint {
  override schema = {
    tags: ["Pengumuman"],
    summary:
      "Announce: push to the audience's devices, plus WhatsApp and/or email if chosen, respecting preferences and quiet hours (urgent ones ignore quiet hours)",
    request: { body: { content: { "application/json": { schema: CreatePengumumanInput } } } },
    responses: { 201: json(Pengumuman, "Created"), ...problems(400, 401, 403, 422) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createPengumuman({ ctx: tenantCtx(c), input: body }), 201);
  }
}
