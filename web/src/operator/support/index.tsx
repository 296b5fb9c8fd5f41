import { useState } from "preact/hooks";
import { Route, Router, useLocation, useRoute } from "preact-iso";
import { api } from "../../api/client";
import { type Column, DataTable } from "../../console/ui";
import { dateTime } from "../../format";
import { useLanguage } from "../../i18n";
import { AuthImage } from "../../ui/AuthImage";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { PhotoPicker } from "../../ui/PhotoPicker";
import { type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { sx } from "./text";

/**
 * `/platform/support-tickets`: every community's tickets and the contact form's, filtered and counted;
 * `/platform/support-tickets/:id` (the link in the operators' notification email): the thread, respond
 * with an image, change the status. Routes: src/modules/support (operators' part).
 */
export function Support() {
  useLanguage();
  return (
    <Router>
      <Route path="/" component={Inbox} />
      <Route path="/:id" component={TicketScreen} />
    </Router>
  );
}

type Status = "baru" | "diproses" | "selesai";
const STATUSES: Status[] = ["baru", "diproses", "selesai"];

interface Ticket {
  id: string;
  number: number;
  category: string;
  title: string;
  detail: string;
  status: Status;
  source: "tenant" | "homepage";
  tenant: string | null;
  tenant_slug: string | null;
  attachment_url: string | null;
  submitter_name: string;
  submitter_email: string | null;
  submitter_phone: string | null;
  notification_pending: boolean;
  notification_failed: boolean;
  created_at: string;
  updated_at: string;
}
interface Message {
  id: string;
  author: "submitter" | "operator";
  via: "console" | "public" | "email";
  author_name: string;
  message: string;
  lampiran_urls: string[];
  status_change: Status | null;
  created_at: string;
}
interface Thread extends Ticket {
  messages: Message[];
}
interface Summary {
  total: number;
  baru: number;
  diproses: number;
  selesai: number;
}
interface TicketList extends Page<Ticket> {
  summary: Summary;
}
interface Category {
  code: string;
  label: string;
  label_en: string;
}

const BASE = "/platform/support-tickets";
const MAX_IMAGE = 5 * 1024 * 1024;

let categories: Promise<Category[]> | undefined;
/** The categories' labels (one list for everyone), read once per visit. */
function useCategories() {
  categories ??= api
    .get<{ items: Category[] }>("/api/support-tickets/categories")
    .then((r) => r.items)
    .catch(() => {
      categories = undefined;
      return [];
    });
  return useResource(() => categories as Promise<Category[]>);
}
function categoryLabel(list: Category[] | undefined, code: string, lang: string): string {
  const found = list?.find((c) => c.code === code);
  return found ? (lang === "en" ? found.label_en : found.label) : code;
}

/** "Tenant {slug}" as the API labels it, or the contact form's name. */
const sourceOf = (t: Ticket) => t.tenant ?? sx("contactForm");

function StatusBadge({ status }: { status: Status }) {
  return <span class={`badge badge-${status}`}>{sx(status)}</span>;
}

function Inbox() {
  const lang = useLanguage();
  const { query, route } = useLocation();
  const filters = {
    status: STATUSES.includes(query.status as Status) ? query.status : "",
    from: query.from ?? "",
    to: query.to ?? "",
    tenant: query.tenant ?? "",
  };
  // The filters live in the address: the back link from a ticket and a shared link keep them.
  const set = (name: keyof typeof filters, value: string) => {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filters, [name]: value })) {
      if (v) {
        next.set(k, v);
      }
    }
    const qs = next.toString();
    route(qs ? `${BASE}?${qs}` : BASE, true);
  };
  const [summary, setSummary] = useState<Summary | null>(null);
  const key = JSON.stringify(filters);
  const paged = usePaged<Ticket>(
    async (cursor) => {
      const page = await api.get<TicketList>("/api/platform/support-tickets", {
        query: {
          limit: 25,
          cursor,
          status: filters.status || undefined,
          from: filters.from || undefined,
          to: filters.to || undefined,
          tenant: filters.tenant.trim() || undefined,
        },
      });
      if (!cursor) {
        setSummary(page.summary);
      }
      return page;
    },
    [key],
  );
  const cats = useCategories();
  const columns: Column<Ticket>[] = [
    { label: sx("number"), cell: (t) => `#${t.number}`, numeric: true },
    { label: sx("subject"), cell: (t) => <a href={`${BASE}/${t.id}`}>{t.title}</a> },
    { label: sx("source"), cell: sourceOf },
    {
      label: sx("category"),
      cell: (t) => categoryLabel(cats.state === "ready" ? cats.data : undefined, t.category, lang),
    },
    { label: sx("status"), cell: (t) => <StatusBadge status={t.status} /> },
    { label: sx("created"), cell: (t) => dateTime(t.created_at) },
  ];
  return (
    <section aria-labelledby="support-title">
      <h1 id="support-title">{sx("title")}</h1>
      <p class="muted">{sx("intro")}</p>
      <search class="filters" aria-label={sx("list")}>
        <Select
          label={sx("status")}
          name="status"
          value={filters.status}
          onInput={(v) => set("status", v)}
          options={[{ value: "", label: sx("all") }, ...STATUSES.map((s) => ({ value: s, label: sx(s) }))]}
        />
        <Field
          label={sx("from")}
          name="from"
          type="date"
          value={filters.from}
          onInput={(v) => set("from", v)}
        />
        <Field label={sx("to")} name="to" type="date" value={filters.to} onInput={(v) => set("to", v)} />
        <Field label={sx("tenant")} name="tenant" value={filters.tenant} onInput={(v) => set("tenant", v)} />
        {(filters.status || filters.from || filters.to || filters.tenant) && (
          <button type="button" onClick={() => route(BASE, true)}>
            {sx("reset")}
          </button>
        )}
      </search>
      <p class="muted">{sx("dayNote")}</p>
      {summary && paged.state === "ready" && (
        <>
          <h2 class="sr-only">{sx("summary")}</h2>
          <ul class="operator-kpis" aria-label={sx("summary")}>
            <li>
              <strong>{summary.total}</strong> {sx("total")}
            </li>
            {STATUSES.map((s) => (
              <li key={s}>
                <strong>{summary[s]}</strong> {sx(s)}
              </li>
            ))}
          </ul>
        </>
      )}
      <ShowPaged paged={paged} empty={sx("empty")} lines={6}>
        {(items) => <DataTable caption={sx("list")} columns={columns} rows={items} rowKey={(t) => t.id} />}
      </ShowPaged>
    </section>
  );
}

function TicketScreen() {
  useLanguage();
  const { params } = useRoute();
  const id = params.id ?? "";
  const [fresh, setFresh] = useState<Thread | null>(null);
  const ticket = useResource(() => api.get<Thread>(`/api/platform/support-tickets/${id}`), [id]);
  return (
    <section aria-labelledby="ticket-title">
      <p>
        <a href={BASE}>← {sx("back")}</a>
      </p>
      <Show resource={ticket} lines={6}>
        {(loaded) => {
          const t = fresh && fresh.id === loaded.id ? fresh : loaded;
          return <TicketView ticket={t} onChange={setFresh} />;
        }}
      </Show>
    </section>
  );
}

function TicketView({ ticket: t, onChange }: { ticket: Thread; onChange: (t: Thread) => void }) {
  const lang = useLanguage();
  const cats = useCategories();
  return (
    <>
      <h1 id="ticket-title">
        #{t.number} {t.title}
      </h1>
      <p>
        <StatusBadge status={t.status} /> <span class="muted">{sourceOf(t)}</span>
      </p>
      {t.notification_failed ? (
        <p class="alert" role="status">
          {sx("notifFailed")}
        </p>
      ) : t.notification_pending ? (
        <p class="operator-warn" role="status">
          {sx("notifPending")}
        </p>
      ) : null}
      <dl class="facts card">
        <dt>{sx("submitter")}</dt>
        <dd>{t.submitter_name}</dd>
        {t.submitter_email && (
          <>
            <dt>{sx("email")}</dt>
            <dd>
              <a href={`mailto:${t.submitter_email}`}>{t.submitter_email}</a>
            </dd>
          </>
        )}
        {t.submitter_phone && (
          <>
            <dt>{sx("phone")}</dt>
            <dd>{t.submitter_phone}</dd>
          </>
        )}
        <dt>{sx("category")}</dt>
        <dd>{categoryLabel(cats.state === "ready" ? cats.data : undefined, t.category, lang)}</dd>
        <dt>{sx("created")}</dt>
        <dd>{dateTime(t.created_at)}</dd>
        <dt>{sx("updated")}</dt>
        <dd>{dateTime(t.updated_at)}</dd>
      </dl>
      <div class="card">
        <p class="prewrap">{t.detail}</p>
        {t.attachment_url && (
          <ul class="operator-images">
            <li>
              <AuthImage
                src={t.attachment_url}
                alt={sx("imageOf", { name: t.submitter_name })}
                width={4}
                height={3}
              />
            </li>
          </ul>
        )}
      </div>
      <h2>{sx("thread")}</h2>
      {t.messages.length > 0 && (
        <ol class="operator-thread">
          {t.messages.map((m) => (
            <li key={m.id} class={m.author === "operator" ? "operator-mine" : undefined}>
              <header>
                <strong>
                  {m.author_name} · {m.author === "operator" ? sx("fromOperator") : sx("fromSubmitter")}
                </strong>
                <span class="muted">
                  {dateTime(m.created_at)},{" "}
                  {m.via === "email"
                    ? sx("viaEmail")
                    : m.via === "public"
                      ? sx("viaPublic")
                      : sx("viaConsole")}
                </span>
              </header>
              {m.message && <p class="prewrap">{m.message}</p>}
              {m.status_change && <p class="muted">{sx("statusTo", { status: sx(m.status_change) })}</p>}
              {m.lampiran_urls.length > 0 && (
                <ul class="operator-images">
                  {m.lampiran_urls.map((url) => (
                    <li key={url}>
                      <AuthImage
                        src={url}
                        alt={sx("imageOf", { name: m.author_name })}
                        width={4}
                        height={3}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
      <Respond ticket={t} onChange={onChange} />
    </>
  );
}

/** Where a ticket may move from its status (baru → diproses → selesai, or baru → selesai). */
const NEXT: Record<Status, Status[]> = { baru: ["diproses", "selesai"], diproses: ["selesai"], selesai: [] };

function Respond({ ticket, onChange }: { ticket: Thread; onChange: (t: Thread) => void }) {
  const [message, setMessage] = useState("");
  const [status, setStatus] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [local, setLocal] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const { submit, busy, error, fields } = useSubmit(async (key) => {
    const file = files[0];
    let lampiran_url: string | undefined;
    if (file) {
      const form = new FormData();
      form.append("file", file);
      // The same key on a retry: a repeated upload answers the image already stored.
      lampiran_url = (
        await api.upload<{ url: string }>("/api/platform/uploads/support-image", form, {
          idempotencyKey: key,
        })
      ).url;
    }
    const body = {
      message: message.trim() || undefined,
      status: status || undefined,
      lampiran_url,
    };
    return (await api.patch<Thread>(`/api/platform/support-tickets/${ticket.id}`, body, null)).data;
  });
  const send = async (e: Event) => {
    e.preventDefault();
    setDone(false);
    if (!message.trim() && !status) {
      setLocal(sx("needSomething"));
      return;
    }
    if (files.length > 0 && !message.trim()) {
      setLocal(sx("imageNeedsMessage"));
      return;
    }
    if ((files[0]?.size ?? 0) > MAX_IMAGE) {
      setLocal(sx("tooBig"));
      return;
    }
    setLocal(null);
    const updated = await submit();
    if (updated) {
      setMessage("");
      setStatus("");
      setFiles([]);
      setDone(true);
      onChange(updated);
    }
  };
  const next = NEXT[ticket.status];
  return (
    <form class="card operator-form" onSubmit={send} aria-labelledby="respond-title">
      <h2 id="respond-title">{sx("respond")}</h2>
      {ticket.status === "selesai" && <p class="muted">{sx("closed")}</p>}
      <TextArea
        label={sx("message")}
        name="message"
        value={message}
        onInput={setMessage}
        maxLength={5000}
        rows={5}
        error={fields.message}
      />
      <PhotoPicker legend={sx("image")} files={files} onChange={setFiles} error={fields.lampiran_url} />
      {next.length > 0 && (
        <Select
          label={sx("newStatus")}
          name="status"
          value={status}
          onInput={setStatus}
          options={[
            { value: "", label: sx("keep", { status: sx(ticket.status) }) },
            ...next.map((s) => ({ value: s, label: sx(s) })),
          ]}
          error={fields.status}
        />
      )}
      {local && (
        <p class="alert" role="alert">
          {local}
        </p>
      )}
      <FormError error={error} />
      {done && <p role="status">{sx("sent")}</p>}
      <Submit busy={busy}>{sx("send")}</Submit>
    </form>
  );
}
