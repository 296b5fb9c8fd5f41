import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { requestLink } from "../links";
import { LinkChildInput, LinkRequest } from "../schemas";

export class LinkChild extends Endpoint {
  override schema = {
    tags: ["Tenant hierarchy"],
    summary:
      "Ask an RT tenant, by its slug, to join this RW: linked only once the RT's admin accepts (200 when it already has)",
    request: { body: { content: { "application/json": { schema: LinkChildInput } } } },
    responses: {
      202: json(LinkRequest, "Asked (or already asked): waits for the RT's answer"),
      200: json(LinkRequest, "The RT already accepted this RW"),
      ...problems(400, 401, 403, 404, 409),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const answer = await requestLink({ ctx: tenantCtx(c), input: body });
    return c.json(answer, answer.status === "menunggu" ? 202 : 200);
  }
}
