import { useRef, useState } from "preact/hooks";
import { Route, Router, useLocation, useRoute } from "preact-iso";
import { api, newIdempotencyKey } from "../../api/client";
import { dateTime } from "../../format";
import { language, useLanguage } from "../../i18n";
import { AuthImage } from "../../ui/AuthImage";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { PhotoPicker } from "../../ui/PhotoPicker";
import { type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { DataTable } from "../ui";
import { tx } from "./text";

type Status = "baru" | "diproses" | "selesai";
const STATUSES: Status[] = ["baru", "diproses", "selesai"];
const MAX_BYTES = 5 * 1024 * 1024;

interface Ticket {
  id: string;
  number: number;
  category: string;
  title: string;
  detail: string;
  status: Status;
  attachment_url: string | null;
  submitter_name: string;
  created_at: string;
  updated_at: string;
}

interface Message {
  id: string;
  author: "submitter" | "operator";
  author_name: string;
  message: string;
  lampiran_urls: string[];
  status_change: Status | null;
  created_at: string;
}

interface Thread extends Ticket {
  messages: Message[];
}

interface TicketPage extends Page<Ticket> {
  summary: { total: number; baru: number; diproses: number; selesai: number };
}

interface Category {
  code: string;
  label: string;
  label_en: string;
  choosable: boolean;
}

/** `/pengurus/pengaturan/bantuan/*`: the community's tickets to the platform, a new one, and a thread. */
export function Tickets() {
  useLanguage();
  return (
    <Router>
      <Route path="/" component={TicketList} />
      <Route path="/baru" component={NewTicket} />
      <Route path="/:id" component={TicketThread} />
    </Router>
  );
}

const categoryLabel = (categories: Category[] | undefined, code: string) => {
  const c = categories?.find((x) => x.code === code);
  return c ? (language() === "en" ? c.label_en : c.label) : code;
};

function useCategories() {
  return useResource(() => api.get<{ items: Category[] }>("/api/support-tickets/categories"));
}

/**
 * The list with the API's filters (status; from and to: calendar days, inclusive, in Asia/Jakarta) and
 * the summary counts, which follow the filters. The filters live in the address, so a filtered list can
 * be reloaded or shared.
 */
function TicketList() {
  const { query, route } = useLocation();
  const status = STATUSES.includes(query.status as Status) ? (query.status as Status) : "";
  const from = /^\d{4}-\d{2}-\d{2}$/.test(query.from ?? "") ? query.from : "";
  const to = /^\d{4}-\d{2}-\d{2}$/.test(query.to ?? "") ? query.to : "";
  const [summary, setSummary] = useState<TicketPage["summary"] | null>(null);
  const categories = useCategories();
  const tickets = usePaged<Ticket>(
    (cursor) =>
      api
        .get<TicketPage>("/api/support-tickets", {
          query: {
            limit: 20,
            cursor,
            status: status || undefined,
            from: from || undefined,
            to: to || undefined,
          },
        })
        .then((page) => {
          if (!cursor) {
            setSummary(page.summary);
          }
          return page;
        }),
    [status, from, to],
  );
  const [draft, setDraft] = useState({ status, from, to });
  const apply = (event: Event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(draft)) {
      if (v) {
        params.set(k, v);
      }
    }
    const qs = params.toString();
    route(`/pengurus/pengaturan/bantuan${qs ? `?${qs}` : ""}`);
  };
  const filtered = Boolean(status || from || to);
  return (
    <section aria-labelledby="tk-title" class="set">
      <p>
        <a href="/pengurus/pengaturan">{tx("back")}</a>
      </p>
      <h1 id="tk-title">{tx("support")}</h1>
      <p>
        <a class="button primary set-new" href="/pengurus/pengaturan/bantuan/baru">
          {tx("newTicket")}
        </a>
      </p>
      <form class="filters" aria-label={tx("filters")} onSubmit={apply}>
        <Select
          label={tx("status")}
          name="status"
          value={draft.status}
          onInput={(v) => setDraft({ ...draft, status: v as Status | "" })}
          options={[
            { value: "", label: tx("anyStatus") },
            ...STATUSES.map((s) => ({ value: s, label: tx(`st_${s}`) })),
          ]}
        />
        <Field
          label={tx("from")}
          name="from"
          type="date"
          value={draft.from ?? ""}
          onInput={(v) => setDraft({ ...draft, from: v })}
        />
        <Field
          label={tx("to")}
          name="to"
          type="date"
          value={draft.to ?? ""}
          onInput={(v) => setDraft({ ...draft, to: v })}
        />
        <div class="set-filter-buttons">
          <button type="submit">{tx("apply")}</button>
          {filtered && (
            <a
              class="button"
              href="/pengurus/pengaturan/bantuan"
              onClick={() => setDraft({ status: "", from: "", to: "" })}
            >
              {tx("reset")}
            </a>
          )}
        </div>
      </form>
      {summary && (
        <ul class="set-counts" aria-label={tx("support")}>
          <li>
            <strong>{summary.total}</strong> {tx("total")}
          </li>
          {STATUSES.map((s) => (
            <li key={s}>
              <strong>{summary[s]}</strong> {tx(`st_${s}`)}
            </li>
          ))}
        </ul>
      )}
      <ShowPaged paged={tickets} empty={filtered ? tx("noTicketsFiltered") : tx("noTickets")}>
        {(rows) => (
          <DataTable
            caption={tx("support")}
            rowKey={(t) => t.id}
            rows={rows}
            columns={[
              {
                label: tx("ticketTitle"),
                cell: (t) => (
                  <a href={`/pengurus/pengaturan/bantuan/${encodeURIComponent(t.id)}`}>
                    #{t.number} {t.title}
                  </a>
                ),
              },
              {
                label: tx("category"),
                cell: (t) =>
                  categoryLabel(categories.state === "ready" ? categories.data.items : undefined, t.category),
              },
              { label: tx("status"), cell: (t) => <StatusBadge status={t.status} /> },
              { label: tx("updated"), cell: (t) => dateTime(t.updated_at) },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}

const StatusBadge = ({ status }: { status: Status }) => (
  <span class={`badge set-st-${status}`}>{tx(`st_${status}`)}</span>
);

/**
 * An image for a ticket (POST /api/uploads/resident-image?kind=support-ticket). An image already
 * uploaded is not sent again when the ticket's own write is retried, and a retried upload carries the
 * same Idempotency-Key.
 */
function useTicketUploader() {
  const stored = useRef(new WeakMap<File, string>());
  const keys = useRef(new WeakMap<File, string>());
  return async (file: File): Promise<string> => {
    const known = stored.current.get(file);
    if (known) {
      return known;
    }
    let key = keys.current.get(file);
    if (!key) {
      key = newIdempotencyKey();
      keys.current.set(file, key);
    }
    const form = new FormData();
    form.set("file", file, file.name);
    const { url } = await api.upload<{ url: string }>("/api/uploads/resident-image", form, {
      idempotencyKey: key,
      query: { kind: "support-ticket" },
    });
    stored.current.set(file, url);
    return url;
  };
}

function NewTicket() {
  const { route } = useLocation();
  const categories = useCategories();
  const [category, setCategory] = useState("");
  const [title, setTitle] = useState("");
  const [detail, setDetail] = useState("");
  const [photos, setPhotos] = useState<File[]>([]);
  const tooBig = photos.some((p) => p.size > MAX_BYTES);
  const upload = useTicketUploader();
  const form = useSubmit(async (key) => {
    const attachment = photos[0] ? await upload(photos[0]) : undefined;
    return api.post<Thread>(
      "/api/support-tickets",
      {
        category,
        title: title.trim(),
        detail: detail.trim(),
        ...(attachment ? { attachment_url: attachment } : {}),
      },
      { idempotencyKey: key },
    );
  });
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    if (tooBig) {
      return;
    }
    const ticket = await form.submit();
    if (ticket) {
      route(`/pengurus/pengaturan/bantuan/${encodeURIComponent(ticket.id)}`);
    }
  };
  return (
    <section aria-labelledby="nt-title" class="set">
      <p>
        <a href="/pengurus/pengaturan/bantuan">← {tx("support")}</a>
      </p>
      <h1 id="nt-title">{tx("newTicket")}</h1>
      <Show resource={categories}>
        {(c) => (
          <form class="card set-form" onSubmit={onSubmit}>
            <Select
              label={tx("category")}
              name="category"
              value={category}
              onInput={setCategory}
              required
              error={form.fields.category}
              options={[
                { value: "", label: tx("chooseCategory") },
                ...c.items
                  .filter((x) => x.choosable)
                  .map((x) => ({ value: x.code, label: language() === "en" ? x.label_en : x.label })),
              ]}
            />
            <Field
              label={tx("ticketTitle")}
              name="title"
              value={title}
              onInput={setTitle}
              required
              minLength={3}
              error={form.fields.title}
            />
            <TextArea
              label={tx("detail")}
              name="detail"
              value={detail}
              onInput={setDetail}
              required
              minLength={3}
              maxLength={5000}
              rows={6}
              error={form.fields.detail}
            />
            <PhotoPicker
              legend={tx("photo")}
              files={photos}
              onChange={setPhotos}
              error={tooBig ? tx("tooBig") : form.fields.attachment_url}
            />
            <FormError error={form.error} />
            <Submit busy={form.busy}>{tx("send")}</Submit>
          </form>
        )}
      </Show>
    </section>
  );
}

/** A ticket and its two-way thread (GET /api/support-tickets/:id), and the community's reply. */
function TicketThread() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const categories = useCategories();
  const ticket = useResource(() => api.get<Thread>(`/api/support-tickets/${encodeURIComponent(id)}`), [id]);
  // A reply answers the whole thread: shown in place, so the form and its status message stay.
  const [latest, setLatest] = useState<Thread | null>(null);
  return (
    <section aria-labelledby="th-title" class="set">
      <p>
        <a href="/pengurus/pengaturan/bantuan">← {tx("support")}</a>
      </p>
      <Show resource={ticket} lines={4}>
        {(read) => {
          const t = latest?.id === read.id ? latest : read;
          return (
            <>
              <h1 id="th-title">
                {tx("ticketNo", { n: t.number })}: {t.title}
              </h1>
              <dl class="card set-facts">
                <div>
                  <dt>{tx("status")}</dt>
                  <dd>
                    <StatusBadge status={t.status} />
                  </dd>
                </div>
                <div>
                  <dt>{tx("category")}</dt>
                  <dd>
                    {categoryLabel(
                      categories.state === "ready" ? categories.data.items : undefined,
                      t.category,
                    )}
                  </dd>
                </div>
                <div>
                  <dt>{tx("opened")}</dt>
                  <dd>
                    {dateTime(t.created_at)} · {t.submitter_name}
                  </dd>
                </div>
              </dl>
              <div class="card">
                <p class="set-pre">{t.detail}</p>
                {t.attachment_url && (
                  <AuthImage
                    src={t.attachment_url}
                    alt={tx("evidence")}
                    width={320}
                    height={240}
                    class="photo"
                  />
                )}
              </div>
              <h2>{tx("thread")}</h2>
              <ol class="set-thread">
                {t.messages.map((m) => (
                  <li key={m.id} class={`card set-msg set-msg-${m.author}`}>
                    <p class="set-msg-head">
                      <strong>
                        {m.author === "operator" ? `${tx("operator")} · ${m.author_name}` : m.author_name}
                      </strong>{" "}
                      <span class="muted">{dateTime(m.created_at)}</span>
                    </p>
                    {m.message && <p class="set-pre">{m.message}</p>}
                    {m.status_change && (
                      <p class="muted">{tx("statusChanged", { status: tx(`st_${m.status_change}`) })}</p>
                    )}
                    {m.lampiran_urls.map((url) => (
                      <AuthImage
                        key={url}
                        src={url}
                        alt={tx("attachment", { name: m.author_name })}
                        width={320}
                        height={240}
                        class="photo"
                      />
                    ))}
                  </li>
                ))}
              </ol>
              <Reply id={t.id} onSent={setLatest} />
            </>
          );
        }}
      </Show>
    </section>
  );
}

function Reply({ id, onSent }: { id: string; onSent: (thread: Thread) => void }) {
  const [message, setMessage] = useState("");
  const [photos, setPhotos] = useState<File[]>([]);
  const [sent, setSent] = useState(false);
  const tooBig = photos.some((p) => p.size > MAX_BYTES);
  const upload = useTicketUploader();
  const form = useSubmit(async (key) => {
    const attachment = photos[0] ? await upload(photos[0]) : undefined;
    return api.post<Thread>(
      `/api/support-tickets/${encodeURIComponent(id)}/messages`,
      { message: message.trim(), ...(attachment ? { lampiran_url: attachment } : {}) },
      { idempotencyKey: key },
    );
  });
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    if (tooBig) {
      return;
    }
    setSent(false);
    const thread = await form.submit();
    if (thread) {
      setMessage("");
      setPhotos([]);
      setSent(true);
      onSent(thread);
    }
  };
  return (
    <form class="card set-form" onSubmit={onSubmit}>
      <TextArea
        label={tx("reply")}
        name="message"
        value={message}
        onInput={setMessage}
        required
        maxLength={5000}
        error={form.fields.message}
      />
      <PhotoPicker
        legend={tx("replyPhoto")}
        files={photos}
        onChange={setPhotos}
        error={tooBig ? tx("tooBig") : form.fields.lampiran_url}
      />
      <FormError error={form.error} />
      {sent && <p role="status">{tx("replied")}</p>}
      <Submit busy={form.busy}>{tx("sendReply")}</Submit>
    </form>
  );
}
