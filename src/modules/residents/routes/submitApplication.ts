import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { tenantCtxFor } from "../../../core/tenancy/contexts";
import { submitApplication } from "../applications";
import { ApplicationAccepted, ApplicationInput, SlugParam } from "../schemas";

export class SubmitApplication extends Endpoint {
  override schema = {
    tags: ["Residents"],
    summary: "Apply to become a resident of a community (public form)",
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

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    // A public form names its community by slug: the same checks as the guard (exists, active, flag).
    const ctx = await tenantCtxFor(platformCtx(c), params.slug, { flag: "warga" });
    return c.json(await submitApplication({ ctx, input: body }), 202);
  }
}
