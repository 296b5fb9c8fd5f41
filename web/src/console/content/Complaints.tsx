import { useRef, useState } from "preact/hooks";
import { type Answer, api } from "../../api/client";
import { date, dateTime } from "../../format";
import { type MessageKey, t } from "../../i18n";
import { AuthImage } from "../../ui/AuthImage";
import { FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { ConflictNotice, currentEtag, DataTable, isConflict } from "../ui";
import { tx } from "./text";
import type { Complaint } from "./types";

const STATUSES = ["baru", "diproses", "selesai", "ditolak"] as const;
const statusName = (s: string) => t(`aspirasi.status.${s}` as MessageKey);
const categoryName = (c: string) => t(`aspirasi.category.${c}` as MessageKey);

/** `/pengurus/konten/pengaduan`: residents' complaints by status, newest first. */
export function Complaints() {
  const [status, setStatus] = useState("baru");
  const list = usePaged(
    (cursor) =>
      api.get<Page<Complaint>>("/api/pengaduan", {
        query: { status: status || undefined, cursor, limit: 20 },
      }),
    [status],
  );
  return (
    <section aria-labelledby="konten-complaints-title">
      <h1 id="konten-complaints-title">{tx("pengaduanTitle")}</h1>
      <div class="filters">
        <Select
          label={tx("status")}
          name="status"
          value={status}
          onInput={setStatus}
          options={[
            { value: "", label: tx("allStatuses") },
            ...STATUSES.map((s) => ({ value: s, label: statusName(s) })),
          ]}
        />
      </div>
      <ShowPaged paged={list} empty={tx("noComplaints")} lines={5}>
        {(items) => (
          <DataTable
            caption={tx("pengaduanCaption")}
            rowKey={(c) => c.id}
            rows={items}
            columns={[
              {
                label: tx("titleLabel"),
                cell: (c) => <a href={`/pengurus/konten/pengaduan/${c.id}`}>{c.title}</a>,
              },
              { label: tx("category"), cell: (c) => categoryName(c.category) },
              { label: tx("from"), cell: (c) => c.residentName ?? "—" },
              { label: tx("status"), cell: (c) => statusName(c.status) },
              { label: tx("when"), cell: (c) => date(c.createdAt) },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}

/** `/pengurus/konten/pengaduan/:id`: the complaint, its thread, and a reply with a status change. */
export function ComplaintDetail({ params }: { params: { id: string } }) {
  const path = `/api/pengaduan/${params.id}`;
  const complaint = useResource(() => api.read<Complaint>(path), [path]);
  return (
    <section aria-labelledby="konten-complaint-title">
      <p>
        <a href="/pengurus/konten/pengaduan">{tx("backPengaduan")}</a>
      </p>
      <Show resource={complaint} lines={8}>
        {(answer) => (
          <ComplaintView
            key={answer.etag}
            answer={answer}
            path={path}
            reload={() => complaint.state === "ready" && complaint.reload()}
          />
        )}
      </Show>
    </section>
  );
}

/** The moves the API allows from each status (a note while in progress keeps `diproses`). */
const NEXT: Record<string, string[]> = {
  baru: ["diproses", "ditolak"],
  diproses: ["diproses", "selesai", "ditolak"],
};

function ComplaintView(props: { answer: Answer<Complaint>; path: string; reload: () => void }) {
  const [c, setC] = useState(props.answer.data);
  const etag = useRef(props.answer.etag);
  const moves = NEXT[c.status] ?? [];
  const [next, setNext] = useState(moves[0] ?? "");
  const [response, setResponse] = useState("");
  const [done, setDone] = useState(false);
  const reply = useSubmit(async () => {
    const a = await api.put<Complaint>(
      props.path,
      { status: next, response: response.trim() || undefined },
      etag.current,
    );
    etag.current = a.etag ?? etag.current;
    setC(a.data);
    setResponse("");
    setNext((NEXT[a.data.status] ?? [])[0] ?? "");
    setDone(true);
    return true;
  });
  const mine = async () => {
    etag.current = await currentEtag(props.path);
    await reply.submit();
  };
  return (
    <>
      <h1 id="konten-complaint-title">{c.title}</h1>
      <p>
        <span class={`badge badge-${c.status}`}>{statusName(c.status)}</span>{" "}
        <span class="muted">
          {categoryName(c.category)} · {c.residentName ?? "—"} · {date(c.createdAt)}
        </span>
      </p>
      <div class="card">
        <p class="prewrap">{c.description}</p>
        {c.location && <p class="muted">{tx("location", { location: c.location })}</p>}
        {c.photo && <AuthImage src={c.photo} alt={c.title} width={4} height={3} class="photo-wide" />}
      </div>
      <h2 id="konten-thread">{tx("thread")}</h2>
      <ol class="konten-thread" aria-labelledby="konten-thread">
        {(c.thread ?? []).map((m, i) => (
          <li key={`${m.createdAt}-${i}`} class={m.byStaff ? "staff" : undefined}>
            <strong>
              {m.byStaff ? tx("byStaff") : tx("byResident")}
              {m.status && ` · ${statusName(m.status)}`}
            </strong>{" "}
            <span class="muted">{dateTime(m.createdAt)}</span>
            {m.body && <p class="prewrap">{m.body}</p>}
          </li>
        ))}
      </ol>
      {done && (
        <p class="notice" role="status">
          {tx("responded")}
        </p>
      )}
      {moves.length === 0 ? (
        <p class="muted">{tx("final", { status: statusName(c.status) })}</p>
      ) : (
        <form
          class="card"
          onSubmit={(e) => {
            setDone(false);
            return reply.submit(e);
          }}
        >
          <h2>{tx("respond")}</h2>
          <Select
            label={tx("nextStatus")}
            name="status"
            value={next}
            onInput={setNext}
            options={moves.map((s) => ({
              value: s,
              label: s === c.status ? tx("keepStatus") : statusName(s),
            }))}
          />
          <TextArea
            label={tx("response")}
            name="response"
            value={response}
            onInput={setResponse}
            rows={4}
            maxLength={2000}
            required={next === "ditolak" || next === c.status}
            error={reply.fields.response}
          />
          <p class="muted">{tx("responseHint")}</p>
          {isConflict(reply.error) ? (
            <ConflictNotice busy={reply.busy} onTheirs={props.reload} onMine={mine} />
          ) : (
            <FormError error={reply.error} />
          )}
          <Submit busy={reply.busy}>{tx("sendResponse")}</Submit>
        </form>
      )}
    </>
  );
}
