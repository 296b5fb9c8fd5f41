import type { DeliveryResult, FetchFn } from "./types";

const MAX_RESPONSE_CHARS = 1000;

export async function readSnippet(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  return text.length > MAX_RESPONSE_CHARS ? `${text.slice(0, MAX_RESPONSE_CHARS)}…` : text;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function retryAfterSeconds(response: Response, now = Date.now()): number | undefined {
  const header = response.headers.get("retry-after");
  if (!header) {
    return undefined;
  }
  const seconds = Number(header);
  if (Number.isFinite(seconds)) {
    return Math.max(0, Math.ceil(seconds));
  }
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

// Network trouble, throttling and server errors pass; anything else the provider rejected will be
// rejected again. 401 counts as transient: it means our credentials, which an operator can fix.
export function isTransientStatus(status: number): boolean {
  return status === 401 || status === 408 || status === 425 || status === 429 || status >= 500;
}

export async function httpFailure(response: Response, error: string): Promise<DeliveryResult> {
  return {
    ok: false,
    retryable: isTransientStatus(response.status),
    status: response.status,
    response: await readSnippet(response),
    retryAfterSeconds: retryAfterSeconds(response),
    error,
  };
}

// The attempt's deadline fired while the call was open. The request may have reached the provider and
// been acted on; only its answer is missing (ADR 0031).
export function timedOut(signal: AbortSignal): DeliveryResult {
  return {
    ok: false,
    retryable: true,
    unknown: true,
    error: `timed out: no answer before the deadline (${reasonOf(signal.reason)}); outcome unknown`,
  };
}

// The deadline had already passed before this call started (a slow token exchange used it up): nothing
// was sent, so this is an ordinary transient failure.
export function deadlinePassed(): DeliveryResult {
  return { ok: false, retryable: true, error: "deadline passed before the provider call; not sent" };
}

function reasonOf(reason: unknown): string {
  return reason instanceof Error ? reason.name : String(reason);
}

/**
 * Every provider call goes through here with the attempt's deadline. A call that throws after the signal
 * fired is a timeout (outcome unknown); any other throw is a connection failure.
 */
export async function guardedFetch(
  fetchFn: FetchFn,
  input: string,
  init: RequestInit & { signal: AbortSignal },
): Promise<{ response: Response } | { failure: DeliveryResult }> {
  if (init.signal.aborted) {
    return { failure: deadlinePassed() };
  }
  try {
    return { response: await fetchFn(input, init) };
  } catch (err) {
    if (init.signal.aborted) {
      return { failure: timedOut(init.signal) };
    }
    return {
      failure: {
        ok: false,
        retryable: true,
        error: `network error: ${err instanceof Error ? err.message : String(err)}`,
      },
    };
  }
}
