import type { Context } from "hono";
import type { z } from "zod";
import { invalid } from "../errors";
import type { HonoEnv } from "../http/honoEnv";
import { type ServiceContext, serviceContext } from "../services/context";
import type { EnqueueResult } from "../services/outbox";

export type AppContext = Context<HonoEnv>;

export function ctxOf(c: AppContext): ServiceContext {
  return serviceContext(c.env, c.get("config"));
}

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

export const jsonContent = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});

export const IDEMPOTENCY_NOTE =
  "An `Idempotency-Key` header (or the `idempotencyKey` field) makes a repeated request return the first request's message ids without sending again.";

// The header and the body field mean the same thing; disagreeing values are a caller bug worth surfacing.
export function idempotencyKeyOf(c: AppContext, fromBody: string | undefined): string | undefined {
  const header = c.req.header("idempotency-key");
  if (header !== undefined && (header.length === 0 || header.length > 200)) {
    throw invalid("invalid_input", "Idempotency-Key must be 1 to 200 characters.", [
      { field: "Idempotency-Key", message: "1 to 200 characters" },
    ]);
  }
  if (header !== undefined && fromBody !== undefined && header !== fromBody) {
    throw invalid("invalid_input", "Idempotency-Key header and idempotencyKey field differ.", [
      { field: "idempotencyKey", message: "differs from the Idempotency-Key header" },
    ]);
  }
  return header ?? fromBody;
}

export function accepted(c: AppContext, result: EnqueueResult & { batchId?: string }): Response {
  if (result.replayed) {
    c.header("idempotent-replayed", "true");
  }
  return c.json(result, 202);
}
