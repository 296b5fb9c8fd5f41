import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { acceptJoin } from "../join";
import { JoinAccepted, TokenInput } from "../schemas";

const schema = {
  tags: ["Auth"],
  summary: "Accept a join link and become a resident",
  description:
    "Public: the token is the proof (it reached the account's own contact). When staff approve an " +
    "application whose email or WhatsApp number belongs to an existing account, nothing is linked: " +
    "the account holder is sent a link (`{CLIENT_URL}/join?token=…`, single use, 7 days) at the " +
    "account's own email or number, and the client posts its token here. Only then does the resident " +
    "membership exist. No session is opened: sign in as usual, choosing the community. 409 " +
    "`token_used` for a link already used, 409 `already_member` or `person_taken` when the membership " +
    "or the linked person already exists; 400 `token_invalid` or `token_expired`; 403 " +
    "`account_disabled`; 404 when the community is gone; 410 `invitation_retired` for a link withdrawn " +
    "or replaced: a newer invitation to the same person for the same community (only the newest one's " +
    "duties can be accepted), the admin's revocation, or the member's removal.",
  security: [],
  request: { body: { content: { "application/json": { schema: TokenInput } } } },
  responses: {
    200: json(JoinAccepted, "The membership now exists"),
    ...problems(400, 403, 404, 409, 410, 429),
  },
};

export class AcceptJoin extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await acceptJoin({ ctx: platformCtx(c), input: body }));
  }
}
