import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { updateProfile } from "../profile";
import { Me, ProfileInput } from "../schemas";

export class UpdateProfile extends Endpoint {
  override schema = {
    tags: ["User"],
    summary: "Update the caller's profile",
    description:
      "Any member of the community. Sets the full name and WhatsApp number (the person's, seen by all " +
      "their communities) and the housing unit in this community (block and house number; a unit not " +
      "yet registered is created). A complete profile is what guest registrations, letter requests and " +
      "the like require (409 `profile_incomplete` there). A new number is unverified until its owner " +
      "proves it (`POST /api/user/contacts/verify/request`); 409 `whatsapp_taken` when another account " +
      "has proven it. Audited.",
    request: { body: { content: { "application/json": { schema: ProfileInput } } } },
    responses: { 200: json(Me), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateProfile({ ctx: tenantCtx(c), input: body }));
  }
}
