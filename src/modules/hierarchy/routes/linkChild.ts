import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { requestLink } from "../links";
import { LinkChildInput, LinkRequest } from "../schemas";

const schema = {
  tags: ["Tenant hierarchy"],
  summary: "Ask an RT community to join this RW",
  description:
    "Admin of an RW community. Asks the RT named by slug to link to this RW; its admins are told, and " +
    "nothing is linked until the RT's admin accepts (202). Asking again while the request waits, or " +
    "after it was accepted, changes nothing (200). 409 `already_linked` when the RT belongs to " +
    "another RW, 409 `link_request_pending` when another RW's request waits (a request unanswered " +
    "for 14 days no longer holds the RT: another RW may ask in its place); 400 `invalid_child` for " +
    "an RW or this community itself; 404 for an unknown or closed slug. 429 " +
    "`link_request_cooldown` (with Retry-After) when this RT declined this RW less than 7 days ago; " +
    "429 `link_request_limit` when this RW made 20 requests in the last 24 hours or 20 of its " +
    "requests wait for an answer. The RT's admins are told of this RW's request at most once a day.",
  request: { body: { content: { "application/json": { schema: LinkChildInput } } } },
  responses: {
    202: json(LinkRequest, "Asked (or already asked): waits for the RT's answer"),
    200: json(LinkRequest, "The RT already accepted this RW"),
    ...problems(400, 401, 403, 404, 409, 429),
  },
};

export class LinkChild extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const answer = await requestLink({ ctx: tenantCtx(c), input: body });
    return c.json(answer, answer.status === "menunggu" ? 202 : 200);
  }
}
