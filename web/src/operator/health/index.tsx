import { api } from "../../api/client";
import { DataTable } from "../../console/ui";
import { dateTime } from "../../format";
import { useLanguage } from "../../i18n";
import { Empty, Show, useResource } from "../../ui/states";
import { type CommunityStatus, communityStatus } from "../communities/text";
import { statusLabel } from "../ops/shared";
import { hx } from "./text";

/**
 * `/platform/health`: the deep health view (`GET /api/platform/health`): the platform database, every
 * community database slot, the notification service's backlog, parked messages, latest failures and
 * delivery alerts, and the communities without an admin.
 */
interface Failure {
  messageId: string;
  status: string;
  attempts: number;
  error: string | null;
  at: string;
}
interface Health {
  status: "ok" | "degraded";
  version: string;
  platformDb: { answers: boolean; ms: number };
  slots: {
    total: number;
    used: number;
    free: number;
    latestMigration: string | null;
    problems: number;
    items: {
      slot: number;
      binding: string;
      tenant: { slug: string; status: CommunityStatus } | null;
      answers: boolean;
      ms: number;
      migration: string | null;
      behind: number;
    }[];
  };
  notify: {
    answers: boolean;
    ms: number;
    backlog?: { queued: number; sending: number; retrying: number; total: number; oldestAt: string | null };
    deadLetters?: number;
    failed?: number;
    lastFailures?: Record<"email" | "push" | "whatsapp", Failure[]>;
    alerts?: {
      cause: string;
      channel: string;
      status: string;
      count: number;
      lastAt: string;
      emailed: boolean;
    }[];
  };
  tenantsWithoutAdmin: { id: string; slug: string; name: string; status: CommunityStatus }[];
}

const yesNo = (b: boolean) => (b ? hx("yes") : hx("no"));

export function HealthView() {
  useLanguage();
  const health = useResource(() => api.get<Health>("/api/platform/health"));
  return (
    <section aria-labelledby="health-title">
      <div class="operator-head">
        <h1 id="health-title">{hx("title")}</h1>
        {health.state === "ready" && (
          <button type="button" onClick={health.reload}>
            {hx("refresh")}
          </button>
        )}
      </div>
      <Show resource={health} lines={8}>
        {(h) => {
          const failures = (["email", "push", "whatsapp"] as const).flatMap((channel) =>
            (h.notify.lastFailures?.[channel] ?? []).map((f) => ({ ...f, channel })),
          );
          return (
            <>
              <p class={h.status === "ok" ? "card" : "operator-warn"} role="status">
                <strong>{h.status === "ok" ? hx("ok") : hx("degraded")}</strong> · {hx("version")} {h.version}{" "}
                · {hx("platformDb")}:{" "}
                {h.platformDb.answers ? hx("answers", { ms: Math.round(h.platformDb.ms) }) : hx("silent")}
              </p>
              <h2>{hx("noAdmin")}</h2>
              {h.tenantsWithoutAdmin.length === 0 ? (
                <Empty>{hx("noAdminNone")}</Empty>
              ) : (
                <ul class="card rows operator-rows">
                  {h.tenantsWithoutAdmin.map((t) => (
                    <li key={t.id}>
                      <a href={`/platform/communities/${t.id}`}>{t.name}</a>
                      <span class="muted">
                        {t.slug} · {communityStatus(t.status)}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
              <h2>{hx("notify")}</h2>
              <div class="card">
                <p>{h.notify.answers ? hx("answers", { ms: Math.round(h.notify.ms) }) : hx("silent")}</p>
                {h.notify.backlog && (
                  <p>
                    {h.notify.backlog.total === 0
                      ? hx("noBacklog")
                      : hx("backlog", {
                          queued: h.notify.backlog.queued,
                          sending: h.notify.backlog.sending,
                          retrying: h.notify.backlog.retrying,
                          oldest: h.notify.backlog.oldestAt
                            ? dateTime(h.notify.backlog.oldestAt)
                            : hx("none"),
                        })}
                  </p>
                )}
                {h.notify.deadLetters !== undefined && (
                  <p>{hx("deadLetters", { n: h.notify.deadLetters, failed: h.notify.failed ?? 0 })}</p>
                )}
                <p>
                  <a href="/platform/operations">{hx("openDeliveries")}</a>
                </p>
              </div>
              <h3>{hx("failures")}</h3>
              {failures.length === 0 ? (
                <Empty>{hx("noFailures")}</Empty>
              ) : (
                <DataTable
                  caption={hx("failures")}
                  rowKey={(f) => `${f.channel}-${f.messageId}`}
                  rows={failures}
                  columns={[
                    { label: hx("channel"), cell: (f) => f.channel },
                    { label: hx("message"), cell: (f) => f.messageId },
                    { label: hx("status"), cell: (f) => statusLabel(f.status) },
                    { label: hx("attempts"), cell: (f) => String(f.attempts), numeric: true },
                    { label: hx("error"), cell: (f) => f.error ?? hx("none") },
                    { label: hx("at"), cell: (f) => dateTime(f.at) },
                  ]}
                />
              )}
              <h3>{hx("alerts")}</h3>
              {(h.notify.alerts ?? []).length === 0 ? (
                <Empty>{hx("noAlerts")}</Empty>
              ) : (
                <DataTable
                  caption={hx("alerts")}
                  rowKey={(a) => `${a.cause}-${a.lastAt}`}
                  rows={h.notify.alerts ?? []}
                  columns={[
                    { label: hx("cause"), cell: (a) => a.cause },
                    { label: hx("status"), cell: (a) => statusLabel(a.status) },
                    { label: hx("count"), cell: (a) => String(a.count), numeric: true },
                    { label: hx("at"), cell: (a) => dateTime(a.lastAt) },
                    { label: hx("emailed"), cell: (a) => yesNo(a.emailed) },
                  ]}
                />
              )}
              <h2>{hx("slots")}</h2>
              <p>
                {hx("slotSummary", {
                  free: h.slots.free,
                  total: h.slots.total,
                  problems: h.slots.problems,
                  latest: h.slots.latestMigration ?? hx("none"),
                })}
              </p>
              <DataTable
                caption={hx("slots")}
                rowKey={(s) => String(s.slot)}
                rows={h.slots.items}
                columns={[
                  { label: hx("slot"), cell: (s) => String(s.slot), numeric: true },
                  {
                    label: hx("tenant"),
                    cell: (s) =>
                      s.tenant ? `${s.tenant.slug} (${communityStatus(s.tenant.status)})` : hx("free"),
                  },
                  {
                    label: hx("answersCol"),
                    cell: (s) => (s.answers ? `${hx("yes")} (${Math.round(s.ms)} ms)` : hx("no")),
                  },
                  { label: hx("migration"), cell: (s) => s.migration ?? hx("none") },
                  { label: hx("behind"), cell: (s) => String(s.behind), numeric: true },
                ]}
              />
            </>
          );
        }}
      </Show>
    </section>
  );
}
