import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createCashEntry } from "../kas/entries";
import { CashEntry, CashEntryInput } from "../schemas";

const schema = {
  tags: ["Kas"],
  summary: "Add a manual cash-book entry",
  description:
    "The treasurer and admin. Posts a manual income (masuk) or spending (keluar) entry with its " +
    "category, amount, date (not in the future: 400 `invalid_date`) a note, and an optional scan from " +
    "`POST /api/files` (purpose `lampiran_kas`). Entries are never edited or deleted; a mistake is " +
    "corrected with `POST /api/kas/{id}/koreksi`. Audited.",
  request: { body: { content: { "application/json": { schema: CashEntryInput } } } },
  responses: { 201: json(CashEntry), ...problems(400, 401, 403, 404) },
};

export class CreateCashEntry extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createCashEntry({ ctx: tenantCtx(c), input: body }), 201);
  }
}
