import { Route, Router, useLocation } from "preact-iso";
import { api } from "../../api/client";
import { DataTable } from "../../console/ui";
import { dateTime } from "../../format";
import { useLanguage } from "../../i18n";
import { Select } from "../../ui/forms";
import { Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { communityStatus } from "../communities/text";
import { CommunityOps } from "./community";
import { MessageScreen } from "./message";
import { type Community, type Delivery, RetryButton, StatusBadge, statusLabel } from "./shared";
import { opx } from "./text";
import "./ops.css";

/**
 * `/platform/operations`: the notification service's delivery log (failed first, filters, retry), and
 * per community the personal-data erasures and archives (issue 47 item 4). The delivery log is read
 * through the main API's operator routes (`/api/platform/notifications/messages`), never from the
 * notification service itself.
 */
export function Operations() {
  return (
    <Router>
      <Route path="/" component={OpsHome} />
      <Route path="/messages/:id" component={MessageScreen} />
      <Route path="/communities/:id" component={CommunityOps} />
    </Router>
  );
}

export const OPS_BASE = "/platform/operations";
const STATUS_FILTERS = ["failed", "dead", "all", "retrying", "queued", "sent", "skipped"] as const;
const CHANNELS = ["", "email", "whatsapp", "push"] as const;

function OpsHome() {
  useLanguage();
  const { query, route } = useLocation();
  const filters = {
    // Failed deliveries first: the log opens on them.
    status: STATUS_FILTERS.includes(query.status as (typeof STATUS_FILTERS)[number])
      ? query.status
      : "failed",
    channel: CHANNELS.includes(query.channel as (typeof CHANNELS)[number]) ? query.channel : "",
    tenantId: query.tenantId ?? "",
    from: query.from ?? "",
    to: query.to ?? "",
  };
  // Kept in the address, so the way back from a message finds the same filters.
  const set = (name: keyof typeof filters, value: string) => {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filters, [name]: value })) {
      if (v && !(k === "status" && v === "failed")) {
        next.set(k, v);
      }
    }
    const qs = next.toString();
    route(qs ? `${OPS_BASE}?${qs}` : OPS_BASE, true);
  };
  const communities = useResource(() =>
    api.get<{ items: Community[] }>("/api/platform/tenants", { query: { limit: 100 } }).then((p) => p.items),
  );
  const key = JSON.stringify(filters);
  const paged = usePaged<Delivery>(
    (cursor) =>
      api.get<{ items: Delivery[]; nextCursor: string | null }>("/api/platform/notifications/messages", {
        query: {
          limit: 25,
          cursor,
          status: filters.status === "all" ? undefined : filters.status,
          channel: filters.channel || undefined,
          tenantId: filters.tenantId || undefined,
          from: filters.from || undefined,
          to: filters.to || undefined,
        },
      }),
    [key],
  );
  const slugOf = (id: string | null) =>
    (communities.state === "ready" && communities.data.find((c) => c.id === id)?.slug) || opx("none");
  return (
    <section aria-labelledby="ops-title">
      <div class="operator-head">
        <h1 id="ops-title">{opx("title")}</h1>
      </div>
      <h2>{opx("deliveries")}</h2>
      <p class="muted">{opx("deliveriesHint")}</p>
      <fieldset class="filters ops-filters">
        <legend class="sr-only">{opx("filters")}</legend>
        <Select
          label={opx("status")}
          name="status"
          value={filters.status}
          onInput={(v) => set("status", v)}
          options={STATUS_FILTERS.map((s) => ({
            value: s,
            label: s === "all" ? opx("all") : statusLabel(s),
          }))}
        />
        <Select
          label={opx("channel")}
          name="channel"
          value={filters.channel}
          onInput={(v) => set("channel", v)}
          options={CHANNELS.map((c) => ({ value: c, label: c || opx("all") }))}
        />
        <Select
          label={opx("community")}
          name="tenantId"
          value={filters.tenantId}
          onInput={(v) => set("tenantId", v)}
          options={[
            { value: "", label: opx("anyCommunity") },
            ...(communities.state === "ready"
              ? communities.data.map((c) => ({ value: c.id, label: `${c.name} (${c.slug})` }))
              : []),
          ]}
        />
        {(["from", "to"] as const).map((end) => (
          <div class="field" key={end}>
            <label for={`ops-${end}`}>{opx(end)}</label>
            <input
              id={`ops-${end}`}
              type="date"
              value={filters[end]}
              onChange={(e) => set(end, e.currentTarget.value)}
            />
          </div>
        ))}
      </fieldset>
      <ShowPaged paged={paged} empty={opx("noDeliveries")} lines={6}>
        {(items) => (
          <DataTable
            caption={opx("deliveries")}
            rowKey={(d) => d.id}
            rows={items}
            columns={[
              { label: opx("at"), cell: (d) => dateTime(d.createdAt) },
              { label: opx("channel"), cell: (d) => d.channel },
              { label: opx("recipient"), cell: (d) => d.recipient },
              { label: opx("community"), cell: (d) => slugOf(d.tenantId) },
              { label: opx("status"), cell: (d) => <StatusBadge status={d.status} /> },
              { label: opx("attempts"), cell: (d) => String(d.attempts), numeric: true },
              { label: opx("error"), cell: (d) => d.lastError ?? opx("none") },
              {
                label: opx("detail"),
                cell: (d) => (
                  <span class="ops-actions">
                    <a href={`${OPS_BASE}/messages/${d.id}`} aria-label={`${opx("detail")} ${d.id}`}>
                      {opx("detail")}
                    </a>
                    {d.retryable && <RetryButton id={d.id} />}
                  </span>
                ),
              },
            ]}
          />
        )}
      </ShowPaged>
      <h2>{opx("communities")}</h2>
      <p class="muted">{opx("communitiesHint")}</p>
      <Show resource={communities} lines={3}>
        {(list) =>
          list.length === 0 ? (
            <p class="empty">{opx("noCommunities")}</p>
          ) : (
            <ul class="card rows operator-rows">
              {list.map((c) => (
                <li key={c.id}>
                  <a href={`${OPS_BASE}/communities/${c.id}`}>{c.name}</a>
                  <span class="muted">
                    {c.slug} · {c.type} · {communityStatus(c.status)}
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </section>
  );
}
