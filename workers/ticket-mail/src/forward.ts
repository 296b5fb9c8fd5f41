import { z } from "zod";
import { type StoredAttachment, sha256Hex } from "./attachments";

export const REPLIES_URL = "https://api.internal/internal/support-tickets/replies";
// A hung binding must not eat the whole invocation; the MTA retries a thrown message later.
const TIMEOUT_MS = 20_000;

export type ReplyPayload = {
  replyToken: string;
  messageId: string;
  from: { address: string; name?: string };
  subject: string;
  text: string;
  attachments: StoredAttachment[];
  receivedAt: string;
};

export type ForwardResult =
  | { outcome: "appended"; ticketId: string | null }
  | { outcome: "duplicate" }
  | { outcome: "rejected"; reason: string; status: number; code: string | null };

/** The main API could not take the reply now; the message must be retried, not bounced. */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = "RetryLaterError";
  }
}

const Appended = z.object({ ticketId: z.string(), messageId: z.string() });
const Duplicate = z.object({ duplicate: z.literal(true) });
const Problem = z.object({ code: z.string().optional(), title: z.string().optional() });

export async function forwardReply(
  api: Fetcher,
  internalKey: string,
  payload: ReplyPayload,
): Promise<ForwardResult> {
  let response: Response;
  // The same id as the `message` field of this Worker's log lines, so the API's lines for the reply
  // are found with it; stable across redeliveries of one email.
  const requestId = `mail-${(await sha256Hex(payload.messageId)).slice(0, 16)}`;
  try {
    response = await api.fetch(REPLIES_URL, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Service-Internal-Key": internalKey,
        "X-Request-Id": requestId,
      },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new RetryLaterError(`main API unreachable: ${errorName(error)}`, null);
  }
  const body: unknown = await response.json().catch(() => null);
  const status = response.status;

  if (status === 201) {
    // The append is committed whatever the body says; a retry would only find a duplicate.
    const parsed = Appended.safeParse(body);
    return { outcome: "appended", ticketId: parsed.success ? parsed.data.ticketId : null };
  }
  if (status === 200 && Duplicate.safeParse(body).success) {
    return { outcome: "duplicate" };
  }
  const problem = Problem.safeParse(body);
  const code = problem.success ? (problem.data.code ?? null) : null;
  if (status === 404 && code === "ticket_not_found") {
    return { outcome: "rejected", reason: "Unknown ticket reference in the subject", status, code };
  }
  // Our own key or deployment is wrong (401/403, a 404 without the code means the route is
  // missing), or the API is overloaded: none is the sender's fault, so keep the mail queued.
  if (
    status === 401 ||
    status === 403 ||
    status === 404 ||
    status === 408 ||
    status === 429 ||
    status >= 500
  ) {
    throw new RetryLaterError(`main API answered ${status}`, status);
  }
  if (status >= 400) {
    return { outcome: "rejected", reason: "The support system could not accept this reply", status, code };
  }
  throw new RetryLaterError(`unexpected answer ${status} from the main API`, status);
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : "unknown";
}
