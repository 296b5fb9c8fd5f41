import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { UserIdParam } from "../schemas";
import { removeMember } from "../service";

const schema = {
  tags: ["Members"],
  summary: "Remove a member from the community",
  description:
    "Admin only. For someone who moved out, stepped down or left: their waiting guest requests and " +
    "unused passes are revoked, their unfinished letter requests cancelled, the membership deleted " +
    "and their sessions in this community ended and their unused invitation links retired, in that order (a retry after a failure is harmless). " +
    "Registry records stay. 409 `last_admin` for the only admin that has signed in (an invited admin " +
    "who never did is not another admin); 404 for someone not a member here. " +
    "Optional If-Match with the member's ETag (412 `precondition_failed` when it changed). Audited.",
  request: { params: UserIdParam },
  responses: { 204: { description: "Removed" }, ...problems(400, 401, 403, 404, 409) },
};

export class RemoveMember extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await removeMember({ ctx: tenantCtx(c), id: params.userId });
    return c.body(null, 204);
  }
}
