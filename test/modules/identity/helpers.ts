import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../../src/index";
import { type QueuedMessage, queuedMessages } from "../../helpers/notify";

/**
 * POSTs JSON to a route whose work continues after the answer (magic link and forgot password look the
 * account up and send through `executionCtx.waitUntil`) and returns once that work has finished: the
 * handler runs with an ExecutionContext of the test's own, and `waitOnExecutionContext` awaits what it
 * was handed. What was sent, or not sent, can then be read at once.
 */
export async function postSettled<T = Record<string, unknown>>(path: string, body: unknown) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://api.test${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
    env,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as T };
}

/** The newest message queued for a recipient; call it after `postSettled`, when sending has finished. */
export async function sentMessage(filter: { recipient: string; template?: string }): Promise<QueuedMessage> {
  const message = (await queuedMessages(filter)).at(-1);
  if (!message) {
    throw new Error(
      `nothing was queued for ${filter.recipient}${filter.template ? ` (${filter.template})` : ""}`,
    );
  }
  return message;
}

/** The `token=` of the link in a queued message (email text or WhatsApp body). */
export function tokenIn(message: QueuedMessage): string {
  const match = /token=([A-Za-z0-9_-]+)/.exec(JSON.stringify(message.payload));
  if (!match?.[1]) {
    throw new Error(`no token link in ${JSON.stringify(message.payload)}`);
  }
  return match[1];
}

export interface Session {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  user: {
    id: string;
    email: string | null;
    roles: string[];
    resident: boolean;
    tenant: { slug: string } | null;
  };
}
