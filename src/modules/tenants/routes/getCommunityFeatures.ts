import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { CommunityFeatures } from "../schemas";

const schema = {
  tags: ["Tenants"],
  summary: "Get the community's feature flags",
  description:
    "Admin of the community. Which of the spec's modules (pasar, tamu, musyawarah, surat, warga) are " +
    "on for the caller's own community, with its subscription status. Read-only: only the platform's " +
    "operators switch a module (PATCH /api/platform/tenants/:id).",
  responses: { 200: json(CommunityFeatures), ...tenantProblems },
};

export class GetCommunityFeatures extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { tenant } = tenantCtx(c);
    return c.json({
      slug: tenant.slug,
      name: tenant.name,
      type: tenant.type,
      flags: tenant.flags,
      subscription: tenant.subscription,
      changedBy: "operator" as const,
    });
  }
}
