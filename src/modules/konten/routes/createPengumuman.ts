import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createPengumuman } from "../pengumuman";
import { CreatePengumumanInput, Pengumuman } from "../schemas";

const schema = {
  tags: ["Pengumuman"],
  summary: "Make an announcement",
  description:
    "Secretary and admin. An announcement for everyone or for some blocks (400 `unknown_block` for a " +
    "block without registered houses). Published at once or saved as draft; publishing sends it to " +
    "the audience's devices, plus WhatsApp and/or email when chosen in `channels`, respecting each " +
    "member's preferences and quiet hours (an `urgent` one ignores quiet hours). Body images must be " +
    "this community's uploads (422 `foreign_image`). Audited.",
  request: { body: { content: { "application/json": { schema: CreatePengumumanInput } } } },
  responses: { 201: json(Pengumuman, "Created"), ...problems(400, 401, 403, 422) },
};

export class CreatePengumuman extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createPengumuman({ ctx: tenantCtx(c), input: body }), 201);
  }
}
