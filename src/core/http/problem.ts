import { ApiException, InputValidationException, MultiException } from "chanfana";
import type { Context } from "hono";
import { z } from "zod";
import { DEPENDENCY_RETRY_AFTER, dependencyUnavailable, isDependencyFailure } from "../dependency";
import type { HonoEnv, RouteEnv } from "../env";
import { DomainError, type ErrorCode, type FieldError, type ProblemExtra, statusOfKind } from "../errors";
import { DEFAULT_LANGUAGE, fieldMessage, pickLanguage, problemText, STATUS_TITLES_EN } from "../i18n";
import { log } from "./log";
import { loggedPath } from "./secret";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/**
 * Every problem's `type` is this base plus its code, in both Workers (the notify Worker repeats the
 * literal because it may not import from here); ADR 0002 says why this base.
 */
export const PROBLEM_TYPE_BASE = "https://warga.id/problems/";

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  requestId?: string;
  errors?: FieldError[];
  allowedNext?: readonly string[];
}

export function problemBody(status: number, code: ErrorCode, detail: string, errors?: FieldError[]): Problem {
  return {
    type: `${PROBLEM_TYPE_BASE}${code}`,
    title: STATUS_TITLES_EN[status] ?? "Error",
    status,
    detail,
    code,
    ...(errors?.length ? { errors } : {}),
  };
}

/** Seconds to wait when a 429 or 503 is thrown without its own Retry-After. */
const DEFAULT_RETRY_AFTER: Partial<Record<number, number>> = { 429: 60, 503: DEPENDENCY_RETRY_AFTER };

export function problemResponse(
  c: Context<HonoEnv>,
  status: number,
  code: ErrorCode,
  detail: string,
  extra: ProblemExtra = {},
): Response {
  // The caller's language for title, detail and field messages, Indonesian unless Accept-Language puts
  // English first (core/i18n); `code` stays. `Vary` keeps a cache from handing one language to the other.
  const lang = pickLanguage(c.req.header("Accept-Language"), DEFAULT_LANGUAGE);
  const english = problemBody(status, code, detail, extra.errors);
  const text = problemText(lang, status, code, english);
  const body: Problem = {
    ...english,
    ...text,
    ...(extra.allowedNext
      ? {
          detail: `${text.detail} ${allowedNextText(lang, extra.allowedNext)}`,
          allowedNext: extra.allowedNext,
        }
      : {}),
    ...(english.errors
      ? { errors: english.errors.map((e) => ({ ...e, message: fieldMessage(lang, e.message) })) }
      : {}),
    requestId: c.get("requestId"),
  };
  const headers: Record<string, string> = {
    "Content-Type": PROBLEM_CONTENT_TYPE,
    "Content-Language": lang,
    Vary: "Accept-Language",
  };
  // Every 429 and 503 says when to come back (ADR 0034), also when the thrower named no time.
  const retryAfter = extra.retryAfter ?? DEFAULT_RETRY_AFTER[status];
  if (retryAfter !== undefined) {
    headers["Retry-After"] = String(retryAfter);
  }
  return new Response(JSON.stringify(body), { status, headers });
}

/** A state conflict's way on, as its detail ends: the states are the API's own words in both languages. */
function allowedNextText(lang: string, allowed: readonly string[]): string {
  if (lang === "en") {
    return allowed.length
      ? `Allowed next states: ${allowed.join(", ")}.`
      : "No further state change is allowed.";
  }
  return allowed.length
    ? `Status berikutnya yang diizinkan: ${allowed.join(", ")}.`
    : "Tidak ada perubahan status lagi yang diizinkan.";
}

function fieldErrors(error: MultiException | InputValidationException): FieldError[] {
  const list = error instanceof MultiException ? error.errors : [error];
  return list.map((e) => {
    const path = e instanceof InputValidationException && Array.isArray(e.path) ? e.path : [];
    // chanfana prefixes the part of the request (body/query/params/headers); clients want the field.
    const field = path.length > 1 ? path.slice(1).join(".") : (path[0] ?? "");
    return { field, message: e.message };
  });
}

/**
 * chanfana's own exceptions carry only a status; each status answers with the code a DomainError of the
 * same meaning would have. A 4xx not listed here is still the client's fault: it keeps its status and
 * answers `invalid_input`.
 */
const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  400: "invalid_input",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "invalid_input",
  429: "rate_limited",
};

function apiExceptionProblem(c: Context<HonoEnv>, error: ApiException): Response {
  const retryAfter = (error as { retryAfter?: unknown }).retryAfter;
  const code = CODE_OF_STATUS[error.status] ?? "invalid_input";
  return problemResponse(c, error.status, code, error.message || error.default_message, {
    ...(typeof retryAfter === "number" ? { retryAfter } : {}),
  });
}

/**
 * Cloudflare marks a Durable Object that refuses work under load with `overloaded: true` on the error
 * (https://developers.cloudflare.com/durable-objects/best-practices/error-handling/). The message text
 * is not a contract, so only the property counts.
 */
function isOverloaded(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { overloaded?: unknown }).overloaded === true
  );
}

/** The one place where anything thrown becomes problem+json. Unknown errors never leak their stack. */
export function onError(error: Error, c: Context<HonoEnv>): Response {
  // A domain error raised under a drizzle query (the slot owner check, core/tenancy/owner.ts) arrives
  // wrapped in drizzle's DrizzleQueryError: its cause is the answer.
  const domain =
    error instanceof DomainError ? error : error.cause instanceof DomainError ? error.cause : null;
  if (domain) {
    return problemResponse(c, statusOfKind[domain.kind], domain.code, domain.message, domain.extra);
  }
  if (error instanceof MultiException || error instanceof InputValidationException) {
    const errors = fieldErrors(error);
    return problemResponse(c, 400, "invalid_input", "The request is not valid.", { errors });
  }
  if (error instanceof ApiException && error.status >= 400 && error.status < 500) {
    return apiExceptionProblem(c, error);
  }
  if (error instanceof z.ZodError) {
    const errors = error.issues.map((i) => ({ field: i.path.join("."), message: i.message }));
    return problemResponse(c, 400, "invalid_input", "The request is not valid.", { errors });
  }
  // An overloaded Durable Object is a busy dependency, not a bug. Cloudflare advises against retrying
  // at once (it deepens the overload), so the Worker does not; the client may after Retry-After.
  if (isOverloaded(error)) {
    log("warn", "dependency_overloaded", {
      requestId: c.get("requestId"),
      path: loggedPath(c),
      error: error.message,
    });
    return problemResponse(c, 503, "busy", "Too many requests at once; try again in a moment.", {
      retryAfter: 1,
    });
  }
  // A D1 or Durable Object failure that core's wrappers did not see (core/dependency.ts): 503, not 500.
  if (isDependencyFailure(error)) {
    const unavailable = dependencyUnavailable("unwrapped", error);
    return problemResponse(c, 503, unavailable.code, unavailable.message, unavailable.extra);
  }
  log("error", "unhandled_error", {
    requestId: c.get("requestId"),
    method: c.req.method,
    path: loggedPath(c),
    error: error.message,
    stack: error.stack,
  });
  return problemResponse(c, 500, "internal_error", "Something went wrong on our side.");
}

/** The 404 of an unknown route: the app's fallback, and a page's own (its `c` is a route handler's). */
export function notFound(c: Context<HonoEnv> | Context<RouteEnv>): Response {
  // Reads the request and its id only, never a binding.
  return problemResponse(
    c as Context<HonoEnv>,
    404,
    "route_not_found",
    `No route for ${c.req.method} ${c.req.path}.`,
  );
}

/**
 * The `Problem` component of /openapi.json, its `code` closed to `codes`: src/app.ts builds it from core's
 * codes and every module's and registers it; routes refer to it by name (`problemRef`, http/openapi.ts),
 * since core cannot know the modules' codes.
 */
export function problemSchema(codes: readonly ErrorCode[]) {
  return z
    .object({
      type: z.string(),
      title: z.string(),
      status: z.number().int(),
      detail: z.string(),
      code: z.enum(codes),
      requestId: z.string().optional(),
      errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      allowedNext: z
        .array(z.string())
        .optional()
        .describe("On a 409 invalid_transition: the states the object may move to from where it is now"),
    })
    .openapi("Problem");
}

export const problemRef = { $ref: "#/components/schemas/Problem" } as const;
