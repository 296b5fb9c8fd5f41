import { z } from "zod";
import { PROBLEM_CONTENT_TYPE, problemRef } from "./problem";

const problem = (description: string) => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: problemRef } },
});

/** Error responses declared once and spread into each route's `responses`. */
export const errors = {
  400: problem("Invalid input (problem+json with `errors[]`)."),
  401: problem("Missing or invalid credentials."),
  402: problem("The community's subscription is inactive: reads still work, writes do not."),
  403: problem("Role not allowed, feature disabled, or tenant suspended."),
  404: problem("Not found, or not yours."),
  409: problem("The current state does not allow this."),
  410: problem("Gone for good (an expired download)."),
  413: problem("Too large."),
  415: problem("Unsupported media type."),
  422: problem("Well-formed, but its content cannot be used (problem+json says why)."),
  429: problem("Rate limited; see Retry-After."),
  503: problem("A dependency is unavailable."),
} as const;

type Code = keyof typeof errors;
export function problems<C extends Code>(...codes: C[]): Pick<typeof errors, C> {
  const picked = {} as Pick<typeof errors, C>;
  for (const code of codes) {
    picked[code] = errors[code];
  }
  return picked;
}

/** The standard set for an authenticated tenant route. */
export const tenantProblems = problems(400, 401, 403, 404);

export function json<T extends z.ZodType>(schema: T, description = "Success") {
  return { description, content: { "application/json": { schema } } };
}

/**
 * A file part of a multipart body (`type: string, format: binary`), so a client generated from
 * /openapi.json sends a Blob or File there rather than text.
 */
export function binaryPart(description: string) {
  return z.string().openapi({ type: "string", format: "binary", description });
}

export const IdParam = z.object({ id: z.string().min(1).max(64) });

function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

/**
 * One page schema per item schema. A route's `schema` is an instance field, evaluated by chanfana's
 * `new Route()` on every request, so a schema built inside it was built again each time (zod's object
 * construction showed in `node scripts/profile-route.mjs path`); this one is built once per item.
 */
const pages = new WeakMap<z.ZodType, z.ZodType>();

export function listOf<T extends z.ZodType>(item: T): ReturnType<typeof pageOf<T>> {
  let page = pages.get(item);
  if (!page) {
    page = pageOf(item);
    pages.set(item, page);
  }
  return page as ReturnType<typeof pageOf<T>>;
}

/**
 * An answer that is an HTML page (the login-free pages), documented as text/html, in the language
 * `Accept-Language` asked for (pages/layout.ts `pageLanguage`).
 */
export function htmlAnswer(description: string) {
  return {
    description,
    headers: z.object({
      "Content-Language": z
        .enum(["id", "en"])
        .describe("`en` when `?lang=en` or Accept-Language ranks English above Indonesian, otherwise `id`."),
    }),
    content: { "text/html": { schema: z.string() } },
  };
}
