import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { deletePoll } from "../service";

const schema = {
  tags: ["Musyawarah"],
  summary: "Delete a poll",
  description:
    "Staff (bendahara, sekretaris, admin), with `musyawarah` on. Deletes a draft, or a published poll nobody has voted " +
    "in; a poll with ballots answers 409 `poll_has_ballots` (close it instead). Optional If-Match " +
    "(412 `precondition_failed`). Audited.",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...problems(401, 403, 404, 409) },
};

export class DeletePoll extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deletePoll({ ctx: tenantCtx(c), id: params.id });
    return c.body(null, 204);
  }
}
