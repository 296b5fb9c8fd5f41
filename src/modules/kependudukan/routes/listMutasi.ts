import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, problems } from "../../../core/http/openapi";
import { listMutasi } from "../mutasi";
import { Mutasi, MutasiListQuery } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "List life events",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. The log of life events (lahir, " +
    "meninggal, pindah_masuk, pindah_keluar), newest first; `from`/`to` are the Asia/Jakarta days the " +
    "events happened on (400 `invalid_range`). Paged by `cursor`.",
  request: { query: MutasiListQuery },
  responses: { 200: json(listOf(Mutasi)), ...problems(400, 401, 403) },
};

export class ListMutasi extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listMutasi({ ctx: tenantCtx(c), input: query }));
  }
}
