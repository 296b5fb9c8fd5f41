import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { recordMutasi } from "../mutasi";
import { Mutasi, MutasiInput } from "../schemas";

export class RecordMutasi extends Endpoint {
  override schema = {
    tags: ["Kependudukan"],
    summary: "Record a life event (lahir, meninggal, pindah_masuk, pindah_keluar) and change the registry",
    request: { body: { content: { "application/json": { schema: MutasiInput } } } },
    responses: { 201: json(Mutasi, "Recorded"), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await recordMutasi({ ctx: tenantCtx(c), input: body }), 201);
  }
}
