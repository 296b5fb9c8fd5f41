import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { submitApplication } from "../applications";
import { ApplicationAccepted, ApplicationInput, SlugParam } from "../schemas";

const schema = {
  tags: ["Residents"],
  summary: "Apply to become a resident",
  description:
    "Public, no sign-in: the community is named by its slug, with the registry (`warga`) switched on. " +
    "Files an application (name, contact, block and house number) for the community's secretary and " +
    "admin to decide. Always 202 with the same answer (a new application, a duplicate of one still " +
    "waiting, or a bot caught by the honeypot), so the form reveals nothing about who applied. " +
    "Limited per address and per contact (429 `rate_limited`); 403 for a suspended community or the " +
    "registry switched off.",
  security: [],
  request: {
    params: SlugParam,
    body: { content: { "application/json": { schema: ApplicationInput } } },
  },
  responses: {
    202: json(ApplicationAccepted, "Accepted, waiting for staff"),
    ...problems(400, 403, 404, 429),
  },
};

export class SubmitApplication extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    // A public form names its community by slug: the guard's `public-tenant` line checked it (exists, active, flag).
    return c.json(await submitApplication({ ctx: tenantCtx(c), input: body }), 202);
  }
}
