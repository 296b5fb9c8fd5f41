import { BOOKMARK_HEADER } from "../tenancy/sessions";
import type { RouteDef } from "./access";

type Doc = {
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown> | undefined>;
};

type Op = {
  parameters?: unknown[];
  responses?: Record<string, { headers?: Record<string, unknown> } & Record<string, unknown>>;
};

const DESCRIPTION =
  "Where the client last was in its community's database (ADR 0036): send back the last value an answer " +
  "carried, so reads served by a nearby replica are at least that new and include your own writes. Opaque; " +
  "a malformed or another community's value is ignored (the request reads as a first one).";

/** Operations that read a community's database for the caller, and so take and give a bookmark. */
function readsACommunity(route: RouteDef): boolean {
  const { scope } = route.access;
  return scope === "tenant" || scope === "device" || scope === "public-tenant" || scope === "user";
}

/**
 * Declares `X-D1-Bookmark` once under components and refers to it from every operation that reads a
 * community (core/tenancy/sessions.ts): as an optional request header, and as a header of each success.
 */
export function declareBookmarkHeader(doc: Doc, routes: readonly RouteDef[]): void {
  const schema = { type: "string", maxLength: 160 };
  doc.components ??= {};
  doc.components.parameters = {
    ...doc.components.parameters,
    D1Bookmark: { name: BOOKMARK_HEADER, in: "header", required: false, description: DESCRIPTION, schema },
  };
  doc.components.headers = {
    ...doc.components.headers,
    D1Bookmark: { description: "The bookmark to send with the next request (see the parameter).", schema },
  };
  for (const route of routes.filter(readsACommunity)) {
    const op = doc.paths?.[route.path.replace(/:(\w+)/g, "{$1}")]?.[route.method] as Op | undefined;
    if (!op) {
      continue;
    }
    op.parameters = [...(op.parameters ?? []), { $ref: "#/components/parameters/D1Bookmark" }];
    for (const [code, response] of Object.entries(op.responses ?? {})) {
      if (/^2\d\d$/.test(code)) {
        response.headers = {
          ...response.headers,
          [BOOKMARK_HEADER]: { $ref: "#/components/headers/D1Bookmark" },
        };
      }
    }
  }
}
