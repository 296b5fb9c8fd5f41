import { env } from "cloudflare:workers";

/** What the fault suites read back from the notify database: each message's row and its attempts. */
export interface MessageRow {
  id: string;
  status: string;
  attempts: number;
  lease_until: string | null;
  provider_message_id: string | null;
}

export interface AttemptRow {
  message_id: string;
  attempt: number;
  outcome: string;
  provider_status: number | null;
  provider_response: string | null;
}

// The consumer finished the message from a lost claim's recorded acceptance, without calling the provider.
export const adopted = (a: AttemptRow) =>
  a.outcome === "sent" &&
  a.provider_status === null &&
  (a.provider_response ?? "").startsWith("not sent again");

export async function messageRows(ids: string[]): Promise<Map<string, MessageRow>> {
  const { results } = await env.NOTIFY_DB.prepare(
    "SELECT id, status, attempts, lease_until, provider_message_id FROM messages WHERE id IN (SELECT value FROM json_each(?1))",
  )
    .bind(JSON.stringify(ids))
    .all<MessageRow>();
  return new Map(results.map((r) => [r.id, r]));
}

export async function attemptRows(ids: string[]): Promise<Map<string, AttemptRow[]>> {
  const { results } = await env.NOTIFY_DB.prepare(
    "SELECT message_id, attempt, outcome, provider_status, provider_response FROM message_attempts WHERE message_id IN (SELECT value FROM json_each(?1)) ORDER BY message_id, attempt",
  )
    .bind(JSON.stringify(ids))
    .all<AttemptRow>();
  const byMessage = new Map<string, AttemptRow[]>();
  for (const row of results) {
    byMessage.set(row.message_id, [...(byMessage.get(row.message_id) ?? []), row]);
  }
  return byMessage;
}
