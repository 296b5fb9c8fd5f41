import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api } from "../../api/client";
import { DataTable } from "../../console/ui";
import { dateTime } from "../../format";
import { useLanguage } from "../../i18n";
import { Empty, Show, useResource } from "../../ui/states";
import { type Delivery, RetryButton, StatusBadge } from "./shared";
import { opx } from "./text";

interface Detail extends Delivery {
  attemptLog: {
    attempt: number;
    startedAt: string;
    finishedAt: string;
    outcome: string;
    providerStatus: number | null;
    providerResponse: string | null;
    error: string | null;
  }[];
}

/** `/platform/operations/messages/:id`: one message, its attempts, and "Kirim ulang" when it failed. */
export function MessageScreen() {
  useLanguage();
  const id = useRoute().params.id ?? "";
  const message = useResource(() => api.get<Detail>(`/api/platform/notifications/messages/${id}`), [id]);
  const [now, setNow] = useState<Delivery | null>(null);
  return (
    <section aria-labelledby="ops-message-title">
      <p>
        <a href="/platform/operations">{opx("back")}</a>
      </p>
      <h1 id="ops-message-title">{opx("message")}</h1>
      <Show resource={message} lines={6}>
        {(m) => {
          const shown = now ?? m;
          return (
            <>
              <dl class="card ops-facts">
                <dt>ID</dt>
                <dd>
                  <code>{m.id}</code>
                </dd>
                <dt>{opx("status")}</dt>
                <dd>
                  <StatusBadge status={shown.status} />
                </dd>
                <dt>{opx("channel")}</dt>
                <dd>{m.channel}</dd>
                <dt>{opx("recipient")}</dt>
                <dd>{m.recipient}</dd>
                <dt>{opx("template")}</dt>
                <dd>{m.template ?? opx("none")}</dd>
                <dt>{opx("subject")}</dt>
                <dd>{m.subject ?? opx("none")}</dd>
                <dt>{opx("reference")}</dt>
                <dd>{m.reference ?? opx("none")}</dd>
                <dt>{opx("at")}</dt>
                <dd>{dateTime(m.createdAt)}</dd>
                <dt>{opx("error")}</dt>
                <dd>{m.lastError ?? opx("none")}</dd>
              </dl>
              {m.retryable && <RetryButton id={m.id} onDone={setNow} />}
              <h2>{opx("attemptLog")}</h2>
              {m.attemptLog.length === 0 ? (
                <Empty>{opx("noAttempts")}</Empty>
              ) : (
                <DataTable
                  caption={opx("attemptLog")}
                  rowKey={(a) => `${a.attempt}-${a.startedAt}`}
                  rows={m.attemptLog}
                  columns={[
                    { label: "#", cell: (a) => String(a.attempt), numeric: true },
                    { label: opx("at"), cell: (a) => dateTime(a.startedAt) },
                    { label: opx("outcome"), cell: (a) => a.outcome },
                    {
                      label: opx("provider"),
                      cell: (a) =>
                        [a.providerStatus, a.providerResponse].filter((x) => x !== null).join(" ") ||
                        opx("none"),
                    },
                    { label: opx("error"), cell: (a) => a.error ?? opx("none") },
                  ]}
                />
              )}
            </>
          );
        }}
      </Show>
    </section>
  );
}
