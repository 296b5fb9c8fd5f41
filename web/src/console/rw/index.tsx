import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { date, dateTime, money } from "../../format";
import { useLanguage } from "../../i18n";
import { useSession } from "../../session";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { dutiesOf } from "../duties";
import { BarChart, Confirm, DataTable } from "../ui";
import "./rw.css";
import { tx } from "./text";

interface Figures {
  residents: number;
  duesArrears: { amount: number; units: number };
  lettersAwaitingProcessing: number;
  complaintsOpen: number;
}

interface Summary {
  children: {
    slug: string;
    name: string;
    figures: Figures | null;
    asOf: string | null;
    error: string | null;
  }[];
  total: Figures;
  generatedAt: string;
}

/**
 * `/pengurus` in an RW: the aggregate across its RTs (GET /api/tenant-hierarchy/summary, the RW's admin)
 * and the way to the letters waiting for the RW (its admin and secretary).
 */
export function RwDashboard() {
  useLanguage();
  const session = useSession();
  const admin = session.status === "signedIn" && dutiesOf(session.user).includes("admin");
  return (
    <section aria-labelledby="rw-title" class="rw">
      <h1 id="rw-title">{tx("dashTitle")}</h1>
      <ul class="kpis rw-links">
        <li>
          <a href="/pengurus/surat-rw">
            <strong>{tx("lettersForRw")}</strong>
            <span>{tx("lettersForRwLead")}</span>
          </a>
        </li>
      </ul>
      {admin && <SummaryView />}
    </section>
  );
}

function SummaryView() {
  const summary = useResource(() => api.get<Summary>("/api/tenant-hierarchy/summary"));
  return (
    <Show resource={summary} lines={4}>
      {(s) => (
        <>
          <p class="muted">{tx("asOf", { date: dateTime(s.generatedAt) })}</p>
          <ul class="kpis" aria-label={tx("dashTitle")}>
            <li>
              <div class="rw-kpi">
                <strong>{s.total.residents}</strong> {tx("residents")}
              </div>
            </li>
            <li>
              <div class="rw-kpi">
                <strong>{money(s.total.duesArrears.amount)}</strong> {tx("arrears")} ·{" "}
                {tx("arrearsUnits", { n: s.total.duesArrears.units })}
              </div>
            </li>
            <li>
              <div class="rw-kpi">
                <strong>{s.total.lettersAwaitingProcessing}</strong> {tx("letters")}
              </div>
            </li>
            <li>
              <div class="rw-kpi">
                <strong>{s.total.complaintsOpen}</strong> {tx("complaints")}
              </div>
            </li>
          </ul>
          <h2>{tx("perRt")}</h2>
          {s.children.length === 0 ? (
            <p class="empty">
              {tx("noChildren")} <a href="/pengurus/rt">{tx("manageRts")}</a>
            </p>
          ) : (
            <>
              <DataTable
                caption={tx("perRt")}
                rowKey={(c) => c.slug}
                rows={s.children}
                columns={[
                  { label: tx("rt"), cell: (c) => c.name },
                  {
                    label: tx("residents"),
                    numeric: true,
                    cell: (c) =>
                      c.figures ? c.figures.residents : tx("unavailable", { reason: c.error ?? "–" }),
                  },
                  {
                    label: tx("arrears"),
                    numeric: true,
                    cell: (c) =>
                      c.figures
                        ? `${money(c.figures.duesArrears.amount)} (${tx("arrearsUnits", { n: c.figures.duesArrears.units })})`
                        : "–",
                  },
                  {
                    label: tx("letters"),
                    numeric: true,
                    cell: (c) => (c.figures ? c.figures.lettersAwaitingProcessing : "–"),
                  },
                  {
                    label: tx("complaints"),
                    numeric: true,
                    cell: (c) => (c.figures ? c.figures.complaintsOpen : "–"),
                  },
                ]}
              />
              <BarChart
                title={tx("residentsChart")}
                bars={s.children.map((c) => ({ label: c.name, value: c.figures?.residents ?? 0 }))}
              />
            </>
          )}
        </>
      )}
    </Show>
  );
}

interface Children {
  items: { slug: string; name: string; linkedAt: string }[];
  pending: { slug: string; name: string; requestedAt: string }[];
}

/**
 * `/pengurus/rt`: the RTs that joined this RW and the requests waiting for an RT's answer
 * (GET /api/tenant-hierarchy/children); ask an RT to join (POST link-child), withdraw a request or
 * unlink an RT (DELETE link-child/:slug), each after a confirmation.
 */
export function RwLinks() {
  useLanguage();
  const children = useResource(() => api.get<Children>("/api/tenant-hierarchy/children"));
  const [leaving, setLeaving] = useState<{ slug: string; name: string; pending: boolean } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const unlink = useSubmit(async () => {
    if (leaving) {
      await api.del(`/api/tenant-hierarchy/link-child/${encodeURIComponent(leaving.slug)}`);
    }
    return true;
  });
  const reload = () => children.state === "ready" && children.reload();
  const confirmLeave = async () => {
    if (await unlink.submit()) {
      setLeaving(null);
      setNotice(tx("done"));
      reload();
    }
  };
  return (
    <section aria-labelledby="rwl-title" class="rw">
      <h1 id="rwl-title">{tx("linksTitle")}</h1>
      {notice && <p role="status">{notice}</p>}
      <Show resource={children} lines={3}>
        {(c) => (
          <>
            <h2>{tx("linked")}</h2>
            {c.items.length === 0 ? (
              <p class="empty">{tx("noChildren")}</p>
            ) : (
              <DataTable
                caption={tx("linked")}
                rowKey={(r) => r.slug}
                rows={c.items}
                columns={[
                  { label: tx("name"), cell: (r) => r.name },
                  { label: tx("slug"), cell: (r) => <code>{r.slug}</code> },
                  { label: tx("linkedAt"), cell: (r) => date(r.linkedAt) },
                  {
                    label: tx("actions"),
                    cell: (r) => (
                      <button
                        type="button"
                        class="danger"
                        aria-label={tx("unlinkLabel", { name: r.name })}
                        onClick={() => setLeaving({ slug: r.slug, name: r.name, pending: false })}
                      >
                        {tx("unlink")}
                      </button>
                    ),
                  },
                ]}
              />
            )}
            <h2>{tx("pending")}</h2>
            {c.pending.length === 0 ? (
              <p class="empty">{tx("noPending")}</p>
            ) : (
              <DataTable
                caption={tx("pending")}
                rowKey={(r) => r.slug}
                rows={c.pending}
                columns={[
                  { label: tx("name"), cell: (r) => r.name },
                  { label: tx("slug"), cell: (r) => <code>{r.slug}</code> },
                  { label: tx("requestedAt"), cell: (r) => date(r.requestedAt) },
                  {
                    label: tx("actions"),
                    cell: (r) => (
                      <button
                        type="button"
                        aria-label={tx("withdrawLabel", { name: r.name })}
                        onClick={() => setLeaving({ slug: r.slug, name: r.name, pending: true })}
                      >
                        {tx("withdraw")}
                      </button>
                    ),
                  },
                ]}
              />
            )}
          </>
        )}
      </Show>
      <AskChild
        onAsked={(text) => {
          setNotice(text);
          reload();
        }}
      />
      <Confirm
        open={leaving !== null}
        title={leaving ? tx(leaving.pending ? "withdrawTitle" : "unlinkTitle", { name: leaving.name }) : ""}
        confirmLabel={leaving?.pending ? tx("withdraw") : tx("unlink")}
        danger
        busy={unlink.busy}
        error={unlink.error}
        onConfirm={confirmLeave}
        onCancel={() => setLeaving(null)}
      >
        {leaving && !leaving.pending && <p>{tx("unlinkBody")}</p>}
      </Confirm>
    </section>
  );
}

function AskChild({ onAsked }: { onAsked: (text: string) => void }) {
  const [slug, setSlug] = useState("");
  const form = useSubmit((key) =>
    api.post<{ child: { name: string }; status: "menunggu" | "disetujui" }>(
      "/api/tenant-hierarchy/link-child",
      { slug: slug.trim().toLowerCase() },
      { idempotencyKey: key },
    ),
  );
  const onSubmit = async (event: Event) => {
    const answer = await form.submit(event);
    if (answer) {
      setSlug("");
      onAsked(tx(answer.status === "menunggu" ? "asked" : "already", { name: answer.child.name }));
    }
  };
  return (
    <form class="card rw-form" onSubmit={onSubmit} aria-labelledby="rw-ask">
      <h2 id="rw-ask">{tx("ask")}</h2>
      <p class="muted">{tx("askLead")}</p>
      <Field
        label={tx("slug")}
        name="slug"
        value={slug}
        onInput={setSlug}
        required
        error={form.fields.slug}
      />
      <FormError error={form.error} />
      <Submit busy={form.busy}>{tx("askSend")}</Submit>
    </form>
  );
}

type AckStatus = "menunggu" | "diketahui" | "ditolak" | "tanpa_rw";
const ACK_STATUSES: AckStatus[] = ["menunggu", "diketahui", "ditolak", "tanpa_rw"];

interface AckItem {
  letterId: string;
  rt: { slug: string; name: string };
  jenisName: string;
  nomorSurat: string | null;
  tanggalSurat: string | null;
  subjectName: string;
  keperluan: string;
  signatory: { name: string; title: string } | null;
  status: AckStatus;
  acknowledgedBy: string | null;
  acknowledgedAt: string | null;
  reason: string | null;
  finishedAt: string | null;
}

/** `/pengurus/surat-rw/*`: the letters of the RW's RTs by their acknowledgement state. */
export function RwLetters() {
  useLanguage();
  // One screen: the status is in the address (`?status=`), so the section needs no nested routes.
  return <AckQueue />;
}

/**
 * The queue (GET /api/surat/rw-acknowledgements, by status, paged): a waiting letter is acknowledged
 * (POST …/:letterId) or declined with a reason (POST …/:letterId/decline), after which it leaves the
 * waiting list.
 */
function AckQueue() {
  const { query, route } = useLocation();
  const status = ACK_STATUSES.includes(query.status as AckStatus) ? (query.status as AckStatus) : "menunggu";
  const letters = usePaged<AckItem>(
    (cursor) =>
      api.get<Page<AckItem>>("/api/surat/rw-acknowledgements", { query: { status, limit: 20, cursor } }),
    [status],
  );
  const [notice, setNotice] = useState<string | null>(null);
  const [declining, setDeclining] = useState<AckItem | null>(null);
  const [acking, setAcking] = useState<string | null>(null);
  const [ackError, setAckError] = useState<unknown>(null);
  const reload = () => letters.state === "ready" && letters.reload();
  const label = (l: AckItem) => ({ number: l.nomorSurat ?? "–", name: l.subjectName });
  const acknowledge = async (l: AckItem) => {
    setAcking(l.letterId);
    setAckError(null);
    setNotice(null);
    try {
      await api.post(`/api/surat/rw-acknowledgements/${encodeURIComponent(l.letterId)}`);
      setNotice(tx("acknowledged", label(l)));
      reload();
    } catch (error) {
      setAckError(error);
    } finally {
      setAcking(null);
    }
  };
  return (
    <section aria-labelledby="rwq-title" class="rw">
      <h1 id="rwq-title">{tx("lettersTitle")}</h1>
      <div class="filters">
        <Select
          label={tx("statusFilter")}
          name="status"
          value={status}
          onInput={(v) => {
            setNotice(null);
            route(v === "menunggu" ? "/pengurus/surat-rw" : `/pengurus/surat-rw?status=${v}`);
          }}
          options={ACK_STATUSES.map((s) => ({ value: s, label: tx(`ack_${s}`) }))}
        />
      </div>
      {notice && <p role="status">{notice}</p>}
      <FormError error={ackError} />
      <ShowPaged paged={letters} empty={tx("noLetters")} lines={3}>
        {(rows) => (
          <DataTable
            caption={`${tx("lettersTitle")}: ${tx(`ack_${status}`)}`}
            rowKey={(l) => l.letterId}
            rows={rows}
            columns={[
              {
                label: tx("letter"),
                cell: (l) => (
                  <span>
                    <strong>{l.jenisName}</strong>
                    <br />
                    {l.nomorSurat ?? "–"} · {l.rt.name}
                  </span>
                ),
              },
              { label: tx("subject"), cell: (l) => l.subjectName },
              { label: tx("purpose"), cell: (l) => l.keperluan },
              {
                label: tx("signatory"),
                cell: (l) => (l.signatory ? `${l.signatory.name} (${l.signatory.title})` : "–"),
              },
              { label: tx("finishedAt"), cell: (l) => (l.finishedAt ? date(l.finishedAt) : "–") },
              status === "menunggu"
                ? {
                    label: tx("actions"),
                    cell: (l) => (
                      <span class="rw-actions">
                        <button
                          type="button"
                          class="primary"
                          disabled={acking !== null}
                          aria-label={tx("acknowledgeLabel", label(l))}
                          onClick={() => acknowledge(l)}
                        >
                          {tx("acknowledge")}
                        </button>
                        <button
                          type="button"
                          class="danger"
                          disabled={acking !== null}
                          aria-label={tx("declineLabel", label(l))}
                          onClick={() => setDeclining(l)}
                        >
                          {tx("decline")}
                        </button>
                      </span>
                    ),
                  }
                : {
                    label: tx("status"),
                    cell: (l) => (
                      <span>
                        <span class={`badge rw-ack-${l.status}`}>{tx(`ack_${l.status}`)}</span>
                        {l.acknowledgedBy && l.acknowledgedAt && (
                          <span class="muted">
                            {" "}
                            {tx("by", { name: l.acknowledgedBy, date: date(l.acknowledgedAt) })}
                          </span>
                        )}
                        {l.reason && <span class="muted"> · {l.reason}</span>}
                      </span>
                    ),
                  },
            ]}
          />
        )}
      </ShowPaged>
      {declining && (
        <DeclineDialog
          key={declining.letterId}
          letter={declining}
          onDeclined={() => {
            setNotice(tx("declined", label(declining)));
            setDeclining(null);
            reload();
          }}
          onCancel={() => setDeclining(null)}
        />
      )}
    </section>
  );
}

/**
 * Declining one letter with a reason (POST …/:letterId/decline). One dialog per letter (keyed by it), so
 * a retry after a failure keeps its Idempotency-Key while another letter's decline gets its own.
 */
function DeclineDialog(props: { letter: AckItem; onDeclined: () => void; onCancel: () => void }) {
  const [reason, setReason] = useState("");
  const decline = useSubmit((key) =>
    api.post(
      `/api/surat/rw-acknowledgements/${encodeURIComponent(props.letter.letterId)}/decline`,
      { reason: reason.trim() },
      { idempotencyKey: key },
    ),
  );
  const confirm = async () => {
    if ((await decline.submit()) !== undefined) {
      props.onDeclined();
    }
  };
  return (
    <Confirm
      open
      title={tx("declineTitle", { number: props.letter.nomorSurat ?? "–" })}
      confirmLabel={tx("decline")}
      danger
      busy={decline.busy}
      error={decline.error}
      onConfirm={confirm}
      onCancel={props.onCancel}
    >
      <p>
        {props.letter.jenisName} · {props.letter.subjectName} · {props.letter.rt.name}
      </p>
      <TextArea
        label={tx("reason")}
        name="reason"
        value={reason}
        onInput={setReason}
        required
        maxLength={1000}
        error={decline.fields.reason}
      />
    </Confirm>
  );
}
