import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { AppEnv } from "../../src/env";
import worker from "../../src/index";
import type { QueueBody } from "../../src/queue/body";

export const KEY = "test-internal-key";

export type EnvOverrides = Partial<Record<keyof AppEnv, unknown>>;

export function testEnv(overrides: EnvOverrides = {}): AppEnv {
  return { ...(env as unknown as AppEnv), ...overrides } as AppEnv;
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  key?: string | null;
  env?: EnvOverrides;
}

// Calls the Worker's own fetch handler with the test env, optionally changed (another provider, a missing
// secret) for this one request.
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== null) {
    headers["x-service-internal-key"] = options.key ?? KEY;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(`https://notify.test${path}`, { method, headers, body }) as Request<
    unknown,
    IncomingRequestCfProperties
  >;
  return worker.fetch(request, testEnv(options.env), createExecutionContext());
}

export async function callJson<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: CallOptions = {},
) {
  const response = await call(method, path, options);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as T,
  };
}

// Drives the queue consumer the way the platform would: one batch, then the ack/retry verdicts.
export async function deliver(
  messageIds: string[],
  options: { attempts?: number; env?: EnvOverrides; queue?: string } = {},
) {
  const batch = createMessageBatch<QueueBody>(
    options.queue ?? "warga-notify",
    messageIds.map((messageId, i) => ({
      id: `q-${messageId}-${options.attempts ?? 1}-${i}`,
      timestamp: new Date(),
      attempts: options.attempts ?? 1,
      body: { messageId },
    })),
  );
  // getQueueResult does not report delaySeconds (verified with @cloudflare/vitest-plugin 1.5), so record
  // the consumer's retry options ourselves.
  const delays = new Map<string, number | undefined>();
  for (const message of batch.messages) {
    const original = message.retry.bind(message);
    message.retry = (retryOptions?: QueueRetryOptions) => {
      delays.set(message.id, retryOptions?.delaySeconds);
      original(retryOptions);
    };
  }
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch<QueueBody>, testEnv(options.env), ctx);
  const result = await getQueueResult(batch, ctx);
  return {
    ...result,
    retryMessages: result.retryMessages.map((r) => ({ msgId: r.msgId, delaySeconds: delays.get(r.msgId) })),
  };
}

export async function messageRow(id: string) {
  return env.NOTIFY_DB.prepare("SELECT * FROM messages WHERE id = ?1")
    .bind(id)
    .first<Record<string, unknown>>();
}
