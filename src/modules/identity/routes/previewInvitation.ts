import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { previewInvitation } from "../invitationPreview";
import { InvitationPreview, TokenInput } from "../schemas";

const schema = {
  tags: ["Auth"],
  summary: "Show what an invitation or join link is for, without using it",
  description:
    "Public: the token is the proof (it reached the account's own contact). For the landing page of a " +
    "set-password invitation (`/reset-password?token=…`) or a join link (`/join?token=…`): the " +
    "community, the duties, and whether the account already has a password, so the person sees what " +
    "they are joining before acting. The token is not spent. 400 `token_invalid` (also for a password " +
    "reset token) or `token_expired`; 409 `token_used`; 404 when the community is gone; 429 " +
    "`rate_limited` per address, as for the other token routes; 410 `invitation_retired` for a link " +
    "withdrawn or replaced by a newer invitation, as accepting it would answer.",
  security: [],
  request: { body: { content: { "application/json": { schema: TokenInput } } } },
  responses: {
    200: json(InvitationPreview, "What the link is for"),
    ...problems(400, 404, 409, 410, 429),
  },
};

export class PreviewInvitation extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await previewInvitation({ ctx: platformCtx(c), input: body }));
  }
}
