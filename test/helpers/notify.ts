import { env } from "cloudflare:workers";

export interface QueuedMessage {
  id: string;
  channel: "email" | "push" | "whatsapp";
  status: string;
  recipient: string;
  template: string | null;
  subject: string | null;
  payload: Record<string, unknown>;
}

/** What the main API asked the notification service to send, read from the service's delivery log. */
export async function queuedMessages(
  filter: { recipient?: string; template?: string } = {},
): Promise<QueuedMessage[]> {
  const where: string[] = [];
  const args: string[] = [];
  if (filter.recipient) {
    where.push("recipient = ?");
    args.push(filter.recipient);
  }
  if (filter.template) {
    where.push("template = ?");
    args.push(filter.template);
  }
  const sql = `SELECT id, channel, status, recipient, template, subject, payload FROM messages${
    where.length ? ` WHERE ${where.join(" AND ")}` : ""
  } ORDER BY id`;
  const rows = await env.NOTIFY_DB_TEST.prepare(sql)
    .bind(...args)
    .all<Omit<QueuedMessage, "payload"> & { payload: string }>();
  return rows.results.map((r) => ({ ...r, payload: JSON.parse(r.payload) as Record<string, unknown> }));
}
