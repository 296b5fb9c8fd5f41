import { env } from "cloudflare:workers";
import { routeTable } from "../../src/app";
import type { Access } from "../../src/core/http/access";

/** The guard's access line of an operation of /openapi.json (`/api/x/{id}` is the route `/api/x/:id`). */
export function accessOf(method: string, openapiPath: string): Access | undefined {
  const colon = openapiPath.replace(/\{(\w+)\}/g, ":$1");
  return routeTable.find((r) => r.method === method && r.path === colon)?.access;
}

/**
 * Headers of a caller the route admits, so a walk's requests get past the guard into validation and the
 * verb: for a tenant route, the token of the duty `pick` chooses among those the line names.
 */
export function admittedCaller(
  method: string,
  openapiPath: string,
  tokens: ReadonlyMap<string, string | undefined>,
  pick: (roles: readonly string[]) => string = (roles) => roles[roles.length - 1] ?? "admin",
): Record<string, string> {
  const access = accessOf(method, openapiPath);
  switch (access?.scope) {
    case "tenant":
      return { Authorization: `Bearer ${tokens.get(pick(access.roles))}` };
    case "user":
      return { Authorization: `Bearer ${tokens.get("warga")}` };
    case "platform":
      return { Authorization: `Bearer ${tokens.get("super_admin")}` };
    case "service":
      return { "X-Service-Internal-Key": env.INTERNAL_API_KEY };
    default:
      return {};
  }
}
