import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { problemText } from "../../ui/problem";
import type { CommunityStatus } from "../communities/text";
import { opx } from "./text";

export type DeliveryStatus = "queued" | "sending" | "sent" | "retrying" | "failed" | "dead" | "skipped";

/** A message of the notification service's delivery log, as the operator's route shows it (masked). */
export interface Delivery {
  id: string;
  channel: "email" | "push" | "whatsapp";
  status: DeliveryStatus;
  recipient: string;
  template: string | null;
  subject: string | null;
  reference: string | null;
  tenantId: string | null;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  retryable: boolean;
}

export interface Community {
  id: string;
  slug: string;
  name: string;
  type: "RT" | "RW";
  status: CommunityStatus;
}

export const statusLabel = (s: string) => opx(`st_${s}` as Parameters<typeof opx>[0]);

export function StatusBadge({ status }: { status: DeliveryStatus }) {
  const tone = status === "failed" || status === "dead" ? "suspended" : status === "sent" ? "active" : "";
  return <span class={`badge badge-${tone}`}>{statusLabel(status)}</span>;
}

/**
 * "Kirim ulang": queues a failed or parked message again and says what came of it (its new status, or
 * the problem: already queued by someone else, the service not answering).
 */
export function RetryButton(props: { id: string; onDone?: (message: Delivery) => void }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: true; status: string } | { ok: false; error: unknown } | null>(
    null,
  );
  const retry = async () => {
    setBusy(true);
    setResult(null);
    try {
      const message = await api.post<Delivery>(`/api/platform/notifications/messages/${props.id}/retry`);
      setResult({ ok: true, status: statusLabel(message.status) });
      props.onDone?.(message);
    } catch (error) {
      setResult({ ok: false, error });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="ops-retry">
      {result?.ok ? null : (
        <button type="button" onClick={retry} disabled={busy} aria-busy={busy ? "true" : undefined}>
          {opx("retry")}
        </button>
      )}
      <span role="status">
        {result?.ok ? opx("retried", { status: result.status }) : null}
        {result && !result.ok ? <span class="field-error">{problemText(result.error)}</span> : null}
      </span>
    </span>
  );
}
