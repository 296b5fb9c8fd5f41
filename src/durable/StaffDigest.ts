import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../core/env";
import { log } from "../core/http/log";
import { type DigestDecision, type DigestEvent, NotifyRequestError, notifyFor } from "../platform/notify";

const SCHEMA = `CREATE TABLE IF NOT EXISTS digest (
  id INTEGER PRIMARY KEY CHECK (id = 1), pending INTEGER NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL)`;

/**
 * Groups the staff's notifications of one kind in one community (`<tenant id>:<kind>`), so a burst of
 * new complaints is one "12 pengaduan baru" rather than twelve pushes (ADR 0033).
 *
 * The first event of a burst opens a window and is told at once by the caller; later events only add
 * to `pending`. When the window's alarm fires it sends one summary of what is pending and opens the next
 * window; an alarm that finds nothing pending closes it, so the next event is told at once again. A
 * flood therefore costs one push per window, however long it lasts. Nothing here reads a clock to
 * decide: the window is the alarm, which tests fire with `runDurableObjectAlarm`.
 */
export class StaffDigest extends DurableObject<Bindings> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(SCHEMA);
  }

  private state(): { pending: number; seq: number; event: string } | undefined {
    return this.sql
      .exec<{ pending: number; seq: number; event: string }>("SELECT pending, seq, event FROM digest")
      .toArray()[0];
  }

  /** Decided in one synchronous section: concurrent events cannot both be "first". */
  async record(event: DigestEvent): Promise<DigestDecision> {
    let open = this.state();
    // A window whose alarm is gone (its retries ran out) would fold every later event forever: start afresh.
    if (open && (await this.ctx.storage.getAlarm()) === null) {
      this.sql.exec("DELETE FROM digest");
      open = undefined;
    }
    if (!open) {
      this.sql.exec(
        "INSERT INTO digest (id, pending, seq, event) VALUES (1, 0, 0, ?)",
        JSON.stringify(event),
      );
      await this.ctx.storage.setAlarm(Date.now() + event.windowSeconds * 1000);
      return { first: true, pending: 0 };
    }
    const pending = open.pending + 1;
    this.sql.exec("UPDATE digest SET pending = ?, event = ? WHERE id = 1", pending, JSON.stringify(event));
    return { first: false, pending };
  }

  /**
   * Sends the summary, then subtracts what it sent (events recorded while it was sending stay pending).
   * A failed send throws, so the alarm is retried with the same idempotency key: never told twice.
   */
  override async alarm(): Promise<void> {
    const open = this.state();
    if (!open) {
      return;
    }
    if (open.pending === 0) {
      await this.ctx.storage.deleteAll();
      this.sql.exec(SCHEMA);
      return;
    }
    const event = JSON.parse(open.event) as DigestEvent;
    const fill = (text: string) => text.replaceAll("{count}", String(open.pending));
    try {
      if (event.recipients.length > 0) {
        await notifyFor(this.env).fanout({
          reference: `${event.tenantId}:${event.kind}:digest`,
          tenant: event.tenant,
          channel: "push",
          recipients: event.recipients.map((userId) => ({ userId })),
          push: {
            title: fill(event.summary.title),
            body: fill(event.summary.body),
            data: event.summary.data,
          },
          idempotencyKey: `${event.tenantId}:${event.kind}:digest:${open.seq}:push`,
        });
      }
      log("info", "staff_digest.sent", { kind: event.kind, tenant: event.tenant, folded: open.pending });
    } catch (error) {
      // The service refused the message itself (4xx): a retry would be refused too, so the summary is
      // dropped and logged. Anything else (the service is down) throws, and the alarm is retried.
      if (!(error instanceof NotifyRequestError && error.status < 500)) {
        throw error;
      }
      log("error", "staff_digest.refused", { kind: event.kind, tenant: event.tenant, error: String(error) });
    }
    this.sql.exec("UPDATE digest SET pending = pending - ?, seq = seq + 1 WHERE id = 1", open.pending);
    await this.ctx.storage.setAlarm(Date.now() + event.windowSeconds * 1000);
  }
}
