import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { UserIdParam } from "../schemas";
import { removeMember } from "../service";

export class RemoveMember extends Endpoint {
  override schema = {
    tags: ["Members"],
    summary:
      "Remove a member (moved out, stepped down, left): their sessions here end, waiting guest passes are revoked and unfinished letters cancelled; registry records stay",
    request: { params: UserIdParam },
    responses: { 204: { description: "Removed" }, ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await removeMember({ ctx: tenantCtx(c), id: params.userId });
    return c.body(null, 204);
  }
}
