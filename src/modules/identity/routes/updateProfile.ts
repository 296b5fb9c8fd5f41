import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { updateProfile } from "../profile";
import { Me, ProfileInput } from "../schemas";

const schema = {
  tags: ["User"],
  summary: "Update the caller's profile",
  description:
    "Any member of the community. Sets the full name and WhatsApp number (the person's, seen by all " +
    "their communities; a new number is unverified until its owner proves it with " +
    "`POST /api/user/contacts/verify/request`). Block and house number (both or neither) do not set the house: a house is " +
    "granted, not claimed. They ask the secretariat to register the caller there (a `rumah` request " +
    "in the registry's corrections, answered as `unitRequest`; a newer one replaces one still waiting, " +
    "the house one already has withdraws it); no unit is created, and the house's dues, household " +
    "ballot and family cards stay out of reach until staff accept it. A complete profile (name, " +
    "number and a granted house) is what guest registrations, letter requests and " +
    "the like require (409 `profile_incomplete` there). 409 `whatsapp_taken` when another account " +
    "has proven the number. Audited.",
  request: { body: { content: { "application/json": { schema: ProfileInput } } } },
  responses: { 200: json(Me), ...problems(400, 401, 403, 404, 409) },
};

export class UpdateProfile extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateProfile({ ctx: tenantCtx(c), input: body }));
  }
}
