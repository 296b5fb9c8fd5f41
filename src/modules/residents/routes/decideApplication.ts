import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { decideApplication } from "../applications";
import { DecisionInput, DecisionResult } from "../schemas";

const schema = {
  tags: ["Residents"],
  summary: "Approve or reject a resident application",
  description:
    "Secretary and admin, with `warga` on. Moves menunggu → disetujui or ditolak, once (409 " +
    "`invalid_transition` when already decided, also by another staff member at the same moment). " +
    "Approval makes a new account (no password), its resident membership and a set-password " +
    "invitation. When the application's email or WhatsApp number already belongs to an account, " +
    "nothing is linked: the account holder is sent a join link at the account's own contact and " +
    "becomes a resident only by accepting it (`POST /api/auth/join/accept`). The answer then carries " +
    "`userId: null` and the channel the application implies; staff never see the existing account's " +
    "name or id. `personId` (approval only) links the membership to the applicant's own person on a " +
    "family card registered at the application's house: 404 `person_not_found` for an id this " +
    "registry does not hold, 409 `person_not_at_unit` for a card at another house, 409 `person_taken` " +
    "when that person already has an account in this community; 409 `account_conflict` when an " +
    "account with the contact was created meanwhile. Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: DecisionInput } } } },
  responses: { 200: json(DecisionResult), ...problems(400, 401, 403, 404, 409) },
};

export class DecideApplication extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await decideApplication({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
