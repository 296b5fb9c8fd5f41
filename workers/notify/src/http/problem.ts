import { z } from "zod";
import { type ErrorCode, type FieldError, NOTIFY_ERROR_CODES } from "../errors";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

// The same base as the main API's problems (src/core/http/problem.ts; ADR 0002), repeated because this
// Worker does not import the API's source.
export const PROBLEM_TYPE_BASE = "https://warga.id/problems/";

export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.enum(NOTIFY_ERROR_CODES),
  requestId: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

export interface ProblemInit {
  status: number;
  code: ErrorCode;
  title: string;
  detail: string;
  requestId?: string;
  errors?: FieldError[];
}

export function problemResponse(init: ProblemInit): Response {
  const body = {
    type: `${PROBLEM_TYPE_BASE}${init.code}`,
    title: init.title,
    status: init.status,
    detail: init.detail,
    code: init.code,
    ...(init.requestId ? { requestId: init.requestId } : {}),
    ...(init.errors ? { errors: init.errors } : {}),
  };
  const headers: Record<string, string> = { "content-type": PROBLEM_CONTENT_TYPE };
  if (init.requestId) {
    headers["x-request-id"] = init.requestId;
  }
  return new Response(JSON.stringify(body), { status: init.status, headers });
}

const descriptions: Record<number, string> = {
  400: "Invalid input",
  401: "Missing or wrong X-Service-Internal-Key",
  404: "Not found",
  409: "State conflict",
  415: "Body is not application/json",
  503: "Channel or queue unavailable",
};

// Declared once and spread into every route so /openapi.json documents our error shape, not chanfana's.
export function problemResponses(...statuses: number[]) {
  return Object.fromEntries(
    [401, ...statuses].map((status) => [
      String(status),
      {
        description: descriptions[status] ?? "Error",
        content: { [PROBLEM_CONTENT_TYPE]: { schema: Problem } },
      },
    ]),
  );
}
