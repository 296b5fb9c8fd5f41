import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { recordMutasi } from "../mutasi";
import { Mutasi, MutasiInput } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "Record a life event",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Records an event and makes its " +
    "change to the registry in one batch: `lahir` adds a member born on the date to an active card, " +
    "`meninggal` marks a living member dead (and the card meninggal when nobody on it is left alive), " +
    "`pindah_masuk` registers an arriving family with a new card at an existing unit, `pindah_keluar` " +
    "marks an active card pindah (no dues from the next period). A move-out, or a death that leaves " +
    "nobody alive on the card, is one act (issue 45): the memberships of the family's people, and of " +
    "everyone at the house when no other active card stays there, end with a 30-day grace period " +
    "(no duty, no house; the person may still sign in for their own data export); the house is " +
    "marked kosong when left empty; the family's bills are settled to its card, its debt from then " +
    "on (GET /api/iuran/tunggakan/pindah), never shown to the house's next occupant. A pindah_masuk " +
    "into a kosong house clears its occupancy. 409 `invalid_transition` for a card not active, a " +
    "member already dead, or a house the registry changed meanwhile; 409 `last_admin` when it would " +
    "end the community's only admin; 400 `invalid_date` for a date in the future; 404 " +
    "`unit_not_found`; 409 `nik_taken`. Audited.",
  request: { body: { content: { "application/json": { schema: MutasiInput } } } },
  responses: { 201: json(Mutasi, "Recorded"), ...problems(400, 401, 403, 404, 409) },
};

export class RecordMutasi extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await recordMutasi({ ctx: tenantCtx(c), input: body }), 201);
  }
}
