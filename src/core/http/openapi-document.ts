import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../env";
import type { RouteDef } from "./access";
import { credentialAnswerOf } from "./endpoint";
import { ACCESS_EXTENSION, operationIdOf, WargaAccess, wargaAccess } from "./openapi-access";
import { declareBookmarkHeader } from "./openapi-bookmark";
import { PROBLEM_CONTENT_TYPE, problemRef } from "./problem";

type Content = Record<string, { schema?: Record<string, unknown> }>;
type Operation = {
  operationId?: string;
  [ACCESS_EXTENSION]?: WargaAccess;
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Content };
  responses?: Record<
    string,
    { headers?: Record<string, unknown>; content?: Content } & Record<string, unknown>
  >;
};
type Document = {
  info: Record<string, unknown> & { description?: string };
  "x-warga-extensions"?: Record<string, { description: string; schema: unknown }>;
  servers?: { url: string; description?: string }[];
  paths?: Record<string, Record<string, Operation>>;
};

const problem = (description: string) => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: problemRef } },
});

/**
 * The header src/platform/idempotency reads (ADR 0034). Named here, in the kernel, because the document
 * declares it: the kernel imports no platform feature (docs/adr/0051-a-small-kernel.md).
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/**
 * What the document needs of a versioned resource (src/platform/conditional declares them): its route
 * path, as in the route table.
 */
export interface VersionedPath {
  readonly path: string;
}

/** The header parameter every write that honours `Idempotency-Key` declares (ADR 0034). */
export const idempotencyKeyParameter = {
  name: IDEMPOTENCY_HEADER,
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the same key and body from the same caller in the same community within 24 h " +
    "answer the first answer again (with `Idempotent-Replayed: true`); another body with the key is 422 " +
    "`idempotency_key_reused`; while the first request runs, 409 `idempotency_in_progress` with Retry-After.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
} as const;

/**
 * Whether a route runs the idempotency middleware for some caller (src/app.ts: POSTs; users and
 * devices), unless its credential-bearing answer is declared safe to `rerun` (Endpoint.credentialAnswer).
 */
export function honoursIdempotencyKey(route: Pick<RouteDef, "method" | "access" | "endpoint">): boolean {
  return (
    route.method === "post" &&
    route.access.scope !== "public" &&
    route.access.scope !== "service" &&
    credentialAnswerOf(route.endpoint) !== "rerun"
  );
}

/** The header's description on a route whose answer carries credentials and is never kept. */
const NO_REPLAY_NOTE =
  " This operation's answer carries credentials and is never kept: a repeat of an applied request " +
  "answers 409 `idempotency_answer_unavailable`.";

/**
 * The names the spec writes in snake_case and the API keeps as written; everything else is camelCase.
 * test/core/openapi-contract.test.ts allows exactly these outside camelCase.
 */
export const SPEC_WIRE_NAMES_NOTE =
  "Field names are English camelCase, with one exception the specification makes: the support ticket " +
  "resource (`/api/support-tickets`, `/api/platform/support-tickets`, `/api/public/support-tickets`) uses " +
  "the spec's own wire names `reply_token`, `attachment_url` and `lampiran_url`, and so keeps snake_case " +
  "throughout (`created_at`, `author_name`, …), so that one resource does not mix two styles.";

const ACCESS_NOTE =
  `Each operation's \`${ACCESS_EXTENSION}\` says who may call it, from the same access line the server ` +
  "enforces: `scope` (`tenant`, `public`, `public-tenant`, `user`, `platform`, `device`, `service`), and " +
  "for `tenant` the `duties` that admit the caller and whether residency (`residents`) suffices, plus the " +
  "community's feature `flag` that must be on. Its schema is under the root's `x-warga-extensions`.";

/**
 * Who may call each operation (`x-warga-access`, from the route's access line) and its operationId
 * (from its endpoint class), with the root's note on both. Every route of the table is an operation.
 */
function declareOperations(doc: Document, routes: readonly RouteDef[]): void {
  for (const route of routes) {
    const op = doc.paths?.[route.path.replace(/:(\w+)/g, "{$1}")]?.[route.method];
    if (!op) {
      throw new Error(`${route.method} ${route.path} is in the route table but not in the document`);
    }
    op.operationId = operationIdOf(route);
    op[ACCESS_EXTENSION] = wargaAccess(route.access);
  }
  doc.info.description = [doc.info.description, ACCESS_NOTE, SPEC_WIRE_NAMES_NOTE]
    .filter(Boolean)
    .join("\n\n");
  doc["x-warga-extensions"] = {
    [ACCESS_EXTENSION]: {
      description: "On every operation: who may call it.",
      schema: wargaAccessJsonSchema(),
    },
  };
}

let accessSchema: unknown;
function wargaAccessJsonSchema(): unknown {
  accessSchema ??= z.toJSONSchema(WargaAccess, { target: "draft-2020-12" });
  return accessSchema;
}

/**
 * What /openapi.json says that depends on the deployment or on core's middleware rather than on one
 * route (issue 30 item 5): `servers` from `APP_URL`, the licence and contact, the `Idempotency-Key`
 * parameter of every write that honours it, and the answers every operation may give besides its own
 * (a problem+json for any other status: a 500, a 503 `dependency_unavailable`). An operation that
 * declares no client error gets the 4XX range, which every route can answer (a refused header, a rate
 * limit in front of it).
 */
export function completeDocument(
  doc: Document,
  appUrl: string,
  routes: readonly RouteDef[],
  versionedResources: readonly VersionedPath[] = [],
): Document {
  doc.servers = [{ url: appUrl, description: "This deployment (APP_URL)" }];
  doc.info.license = { name: "Proprietary", identifier: "LicenseRef-Warga-Proprietary" };
  doc.info.contact = { name: "Warga platform operators", url: appUrl };
  const idempotent = new Map(
    routes
      .filter(honoursIdempotencyKey)
      .map((r) => [
        `post ${r.path.replace(/:(\w+)/g, "{$1}")}`,
        credentialAnswerOf(r.endpoint) === "no-replay",
      ]),
  );
  const versionedPaths = new Set(versionedResources.map((v) => v.path.replace(/:(\w+)/g, "{$1}")));
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op !== "object" || op === null || !op.responses) {
        continue;
      }
      declareBinary(op.requestBody?.content);
      for (const response of Object.values(op.responses)) {
        declareBinary(response.content);
      }
      if (versionedPaths.has(path) && ["get", "put", "patch", "delete"].includes(method)) {
        declareConditional(method, op);
      }
      const codes = Object.keys(op.responses);
      if (!codes.some((code) => code.startsWith("4"))) {
        op.responses["4XX"] = problem("The request was refused (problem+json says why).");
      }
      op.responses.default ??= problem("Any other answer (a server error, a dependency unavailable).");
      if (idempotent.has(`${method} ${path}`) && !op.parameters?.some((p) => p.name === IDEMPOTENCY_HEADER)) {
        const description =
          idempotencyKeyParameter.description + (idempotent.get(`${method} ${path}`) ? NO_REPLAY_NOTE : "");
        const parameter = { ...idempotencyKeyParameter, description };
        op.parameters = [...(op.parameters ?? []), parameter];
      }
    }
  }
  // X-D1-Bookmark on every operation that reads a community (ADR 0036).
  declareBookmarkHeader(doc, routes);
  declareOperations(doc, routes);
  return doc;
}

/**
 * Media types whose body is text a client reads as such: JSON of any kind, and the HTML pages. Every
 * other body but a form is bytes (PDF, xlsx, zip, images, CSV downloads).
 */
export function isTextMediaType(mediaType: string): boolean {
  return (
    mediaType === "application/json" ||
    mediaType.endsWith("+json") ||
    mediaType === "text/html" ||
    mediaType.startsWith("multipart/") ||
    mediaType === "application/x-www-form-urlencoded"
  );
}

/**
 * A body of bytes is `type: string, format: binary` (what generators such as openapi-typescript turn
 * into a Blob), with OpenAPI 3.1's `contentMediaType` naming its type when it is a single one. The
 * route schemas write these bodies as plain strings with a description; this is the one place that
 * types them, so a new download cannot be left typed as text (test/core/openapi-binary.test.ts).
 */
function declareBinary(content: Content | undefined): void {
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    if (isTextMediaType(mediaType)) {
      continue;
    }
    const description = media.schema?.description;
    media.schema = {
      type: "string",
      format: "binary",
      ...(mediaType.includes("*") ? {} : { contentMediaType: mediaType }),
      ...(typeof description === "string" ? { description } : {}),
    };
  }
}

const etagHeader = {
  description:
    'The resource\'s version (`"<version>-<digest>"`, ADR 0035): send it back in If-None-Match to be ' +
    "answered 304, or in If-Match to write only if nobody changed the resource since.",
  schema: { type: "string" },
};

const conditionalParameter = (name: "If-Match" | "If-None-Match", description: string) => ({
  name,
  in: "header",
  required: false,
  description,
  schema: { type: "string", maxLength: 1024 },
});

/**
 * What a versioned resource's operations say besides their own (src/platform/conditional): the ETag on
 * every success, If-None-Match and 304 on the read, If-Match and 412 `precondition_failed` on a write.
 */
function declareConditional(method: string, op: Operation): void {
  const responses = op.responses ?? {};
  for (const [code, response] of Object.entries(responses)) {
    if (/^2\d\d$/.test(code) && code !== "204" && method !== "delete") {
      response.headers = { ...response.headers, ETag: etagHeader };
    }
  }
  if (method === "get") {
    op.parameters = [
      ...(op.parameters ?? []),
      conditionalParameter(
        "If-None-Match",
        "An ETag of an earlier answer: 304 with no body if it is still current.",
      ),
    ];
    responses["304"] = { description: "Not modified since the ETag sent.", headers: { ETag: etagHeader } };
  } else {
    op.parameters = [
      ...(op.parameters ?? []),
      conditionalParameter(
        "If-Match",
        "The ETag the change was based on: 412 `precondition_failed` if the resource changed since. Optional.",
      ),
    ];
    responses["412"] = problem(
      "The resource changed since the ETag sent in If-Match (`precondition_failed`).",
    );
  }
  op.responses = responses;
}

/** Rewrites the document chanfana serves at `/openapi.json` on its way out (see `completeDocument`). */
export function openapiDocument(
  routes: readonly RouteDef[],
  versionedResources: readonly VersionedPath[] = [],
): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status !== 200) {
      return;
    }
    const doc = (await c.res.json()) as Document;
    const headers = new Headers(c.res.headers);
    c.res = undefined;
    c.res = new Response(
      JSON.stringify(completeDocument(doc, c.get("config").APP_URL, routes, versionedResources)),
      {
        status: 200,
        headers,
      },
    );
  };
}
