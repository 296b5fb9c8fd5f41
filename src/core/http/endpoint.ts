import { InputValidationException, MultiException, OpenAPIRoute } from "chanfana";
import { z } from "zod";
import { Invalid } from "../errors";
import { DEFAULT_LANGUAGE, pickLanguage } from "../i18n";
import { DEFAULT_JSON_LIMIT, readJsonBody, unsafeTextPaths } from "./body";
import { openCursor, sealCursor } from "./cursor";
import { problems } from "./openapi";

const bodyProblems = problems(413, 415);

/**
 * chanfana's OpenAPIRoute, with its request validator built once per route instead of on every
 * request (chanfana assembles a fresh `z.strictObject` of params, query, headers and body each time,
 * which showed up on the hot path). Same rules: unknown top-level parts are refused, and zod issues
 * become the same `MultiException` of `InputValidationException`s our `onError` maps.
 */
const validators = new WeakMap<object, Map<boolean, z.ZodType>>();
const zodIndonesian = z.locales.id().localeError;
/** Whether a route's query has `cursor` (a list): its cursors are opened and sealed here (ADR 0040). */
const cursorRoutes = new WeakMap<object, boolean>();

/**
 * How a route whose answer carries credentials (a session's tokens, a device's API key) meets
 * `Idempotency-Key` (ADR 0034, issue 44 P4). `no-replay`: the key still makes the write happen once,
 * but its answer is never kept, so a repeat answers 409 `idempotency_answer_unavailable` (the client
 * holds the first answer or starts over: signs in again, adds the device again). `rerun`: the route
 * does not honour the key at all, because running it again is safe (a public sign-in issues fresh
 * tokens and changes nothing twice). test/core/idempotency.test.ts walks every route whose answer has a
 * credential-like field and requires one of the two.
 */
export type CredentialAnswer = "no-replay" | "rerun";

export abstract class Endpoint extends OpenAPIRoute {
  /** The most a JSON body of this route may hold; a route with a larger body (a logo) raises it. */
  static maxBodyBytes = DEFAULT_JSON_LIMIT;

  /** Set on a route whose answer carries credentials: see `CredentialAnswer`. */
  static credentialAnswer: CredentialAnswer | undefined = undefined;

  private jsonBodySchema(): unknown {
    return (this.getSchemaZod().request?.body?.content as Record<string, { schema?: unknown }> | undefined)?.[
      "application/json"
    ]?.schema;
  }

  /**
   * Every route with a JSON body may answer 413 and 415 (core/http/body.ts): say so in the OpenAPI. A
   * copy: a route's schema is one object of its module, built once (not a class field, which chanfana's
   * construction of the endpoint on every request would build again each time), so it is never changed.
   */
  override getSchema() {
    const schema = super.getSchema();
    const body = (schema.request?.body?.content as Record<string, { schema?: unknown }> | undefined)?.[
      "application/json"
    ]?.schema;
    return body instanceof z.ZodType
      ? { ...schema, responses: { ...bodyProblems, ...schema.responses } }
      : schema;
  }

  /**
   * The body is read here, once, after the route's guard has run (so an unauthenticated request is
   * refused before any of its body is read), capped at `maxBodyBytes`. chanfana's own read then finds
   * the stream used and yields `{}`, which is replaced by what was read.
   */
  override async getUnvalidatedData() {
    if (this.unvalidatedData !== undefined) {
      return this.unvalidatedData;
    }
    const request = this.params.router.getRequest(this.args);
    const method = request.method.toLowerCase();
    const hasJsonBody = method !== "get" && method !== "head" && this.jsonBodySchema() instanceof z.ZodType;
    const body = hasJsonBody
      ? await readJsonBody(request, (this.constructor as typeof Endpoint).maxBodyBytes)
      : undefined;
    const data = await super.getUnvalidatedData();
    if (hasJsonBody) {
      const unsafe = unsafeTextPaths(body);
      if (unsafe.length > 0) {
        throw new Invalid(
          "invalid_input",
          "Text fields must not contain control characters.",
          unsafe.map((field) => ({ field, message: "must not contain control characters" })),
        );
      }
      data.body = body;
    }
    return data;
  }

  private validator(withBody: boolean): z.ZodType {
    let byBody = validators.get(this.constructor);
    if (!byBody) {
      byBody = new Map();
      validators.set(this.constructor, byBody);
    }
    let validator = byBody.get(withBody);
    if (!validator) {
      const request = this.getSchemaZod().request;
      const shape: Record<string, z.ZodType> = {};
      if (request?.params) {
        shape.params = request.params as z.ZodType;
      }
      if (request?.query) {
        shape.query = request.query as z.ZodType;
      }
      if (request?.headers) {
        shape.headers = request.headers as z.ZodType;
      }
      const body = this.jsonBodySchema();
      if (withBody && body instanceof z.ZodType) {
        shape.body = body;
      }
      validator = z.strictObject(shape);
      byBody.set(withBody, validator);
    }
    return validator;
  }

  /** A list route: its query takes `cursor`. */
  private takesCursor(): boolean {
    let takes = cursorRoutes.get(this.constructor);
    if (takes === undefined) {
      const query = this.getSchemaZod().request?.query;
      takes = query instanceof z.ZodObject && "cursor" in query.shape;
      cursorRoutes.set(this.constructor, takes);
    }
    return takes;
  }

  /**
   * A list's answer leaves with its `nextCursor` sealed to this route (core/http/cursor.ts): the verbs
   * page by their inner keys, and only the wire sees the opaque cursor.
   */
  override async execute(...args: Parameters<OpenAPIRoute["execute"]>) {
    const response: unknown = await super.execute(...args);
    if (
      !(response instanceof Response) ||
      response.status !== 200 ||
      !this.takesCursor() ||
      !response.headers.get("Content-Type")?.includes("application/json")
    ) {
      return response;
    }
    const body = (await response.json()) as { nextCursor?: unknown };
    if (typeof body.nextCursor === "string") {
      body.nextCursor = sealCursor(this.params.route, body.nextCursor);
    }
    const headers = new Headers(response.headers);
    headers.delete("Content-Length");
    return new Response(JSON.stringify(body), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  }

  override async validateRequest(request: Request) {
    const method = request.method.toLowerCase();
    const data = await this.getUnvalidatedData();
    try {
      // Field messages in the caller's language, as problemResponse picks it: zod's own Indonesian locale
      // for `id`, the default (core/i18n).
      const indonesian = pickLanguage(request.headers.get("Accept-Language"), DEFAULT_LANGUAGE) === "id";
      const valid = await this.validator(method !== "get" && method !== "head").parseAsync(
        data,
        indonesian ? { error: zodIndonesian } : undefined,
      );
      // The verb gets the inner key of a cursor this very list gave, or the caller 400 invalid_cursor.
      const query = (valid as { query?: { cursor?: unknown } }).query;
      if (this.takesCursor() && query && typeof query.cursor === "string") {
        query.cursor = openCursor(this.params.route, query.cursor);
      }
      return valid;
    } catch (error) {
      if (error instanceof z.ZodError) {
        throw new MultiException(
          error.issues.map((i) => new InputValidationException(i.message, i.path.map(String))),
        );
      }
      throw error;
    }
  }
}

/** What a route class may declare beside its schema (an `Endpoint`'s statics; none for a plain route). */
interface RouteStatics {
  maxBodyBytes?: number;
  credentialAnswer?: CredentialAnswer;
}

/** A route class's JSON body cap (`Endpoint.maxBodyBytes`), the default for a plain chanfana route. */
export function maxBodyBytesOf(endpoint: typeof OpenAPIRoute): number {
  return (endpoint as RouteStatics).maxBodyBytes ?? DEFAULT_JSON_LIMIT;
}

/** How a route class's answer meets `Idempotency-Key` when it carries credentials, if it does. */
export function credentialAnswerOf(endpoint: typeof OpenAPIRoute): CredentialAnswer | undefined {
  return (endpoint as RouteStatics).credentialAnswer;
}
