import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { type Answer, ApiError, api, saveBlob } from "../../api/client";
import { date, dateTime, jakartaDay } from "../../format";
import { useLanguage } from "../../i18n";
import type { Jenis } from "../../screens/surat/types";
import { Field, FormError, Submit, TextArea, useSubmit } from "../../ui/forms";
import { problemText } from "../../ui/problem";
import { Show, useResource } from "../../ui/states";
import { Confirm, ConflictNotice, currentEtag, isConflict } from "../ui";
import { lx } from "./text";
import type { StaffLetter } from "./types";

type Change = { status: "diproses" | "perlu_perbaikan" | "selesai" | "ditolak"; note?: string } & {
  nomorSurat?: string;
  tanggalSurat?: string;
};

/** `/pengurus/surat/:id`: one request, what it asks, and the secretary's moves on it. */
export function LetterDesk({ params }: { params: { id: string } }) {
  useLanguage();
  const path = `/api/surat/${params.id}`;
  const letter = useResource(() => api.read<StaffLetter>(path), [params.id]);
  const [done, setDone] = useState<string | null>(null);
  const reload = letter.state === "ready" ? letter.reload : () => undefined;
  return (
    <section aria-labelledby="letter-title" class="letters">
      <p>
        <a href="/pengurus/surat">{lx("back")}</a>
      </p>
      <Show resource={letter} lines={8}>
        {(answer) => (
          <Desk
            answer={answer}
            path={path}
            done={done}
            after={(message) => {
              setDone(message);
              reload();
            }}
          />
        )}
      </Show>
    </section>
  );
}

function Desk(props: {
  answer: Answer<StaffLetter>;
  path: string;
  done: string | null;
  after: (message: string | null) => void;
}) {
  const { data: letter, etag } = props.answer;
  // The change refused because someone else moved the letter first (412): kept to send again on "mine".
  const [conflict, setConflict] = useState<Change | null>(null);
  const [again, setAgain] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const write = async (change: Change, message: (l: StaffLetter) => string | null) => {
    try {
      const answer = await api.put<StaffLetter>(props.path, change, etag);
      props.after(message(answer.data));
    } catch (error) {
      if (isConflict(error)) {
        setConflict(change);
        return;
      }
      throw error;
    }
  };
  const mine = async () => {
    if (!conflict) {
      return;
    }
    setAgain({ busy: true, error: null });
    try {
      await api.put<StaffLetter>(props.path, conflict, await currentEtag(props.path));
      setConflict(null);
      props.after(null);
    } catch (error) {
      setAgain({ busy: false, error });
    }
  };
  const open = letter.status === "diajukan" || letter.status === "diproses";
  return (
    <>
      <h1 id="letter-title">{letter.jenisName}</h1>
      <p>
        <span class={`badge badge-${letter.status}`}>
          {letter.awaitingRw ? lx("awaitingRw") : lx(letter.status)}
        </span>
      </p>
      {props.done && (
        <p class="card" role="status">
          {props.done}
        </p>
      )}
      {conflict && (
        <>
          <ConflictNotice busy={again.busy} onTheirs={() => props.after(null)} onMine={mine} />
          <FormError error={again.error} />
        </>
      )}
      <div class="letters-grid">
        <Facts letter={letter} />
        <div>
          {open && <Finish letter={letter} write={write} />}
          {open && <Moves letter={letter} write={write} />}
          {letter.status === "selesai" && <RwState letter={letter} after={props.after} path={props.path} />}
          {letter.status === "selesai" && letter.pdfAvailable && <Pdf letter={letter} path={props.path} />}
        </div>
      </div>
      <History letter={letter} />
    </>
  );
}

/** Who the letter is for and what it asks: the request as the resident sent it. */
function Facts({ letter }: { letter: StaffLetter }) {
  const types = useResource(() => api.get<{ items: Jenis[] }>("/api/surat/jenis"));
  const def = types.state === "ready" ? types.data.items.find((j) => j.code === letter.jenis) : undefined;
  // Member ids mean nothing on screen: the PDF prints those people by name.
  const fields = (def?.fields ?? []).filter(
    (f) => f.type !== "member" && f.type !== "members" && letter.fields[f.name] != null,
  );
  return (
    <div>
      <dl class="facts card">
        <dt>{lx("subject")}</dt>
        <dd>{letter.subjectName}</dd>
        <dt>{lx("requester")}</dt>
        <dd>{letter.residentName ?? "—"}</dd>
        <dt>{lx("keperluan")}</dt>
        <dd>{letter.keperluan}</dd>
        <dt>{lx("requested")}</dt>
        <dd>{dateTime(letter.createdAt)}</dd>
        {letter.nomorSurat && (
          <>
            <dt>{lx("number")}</dt>
            <dd>{letter.nomorSurat}</dd>
          </>
        )}
        {letter.tanggalSurat && (
          <>
            <dt>{lx("letterDate")}</dt>
            <dd>{date(letter.tanggalSurat)}</dd>
          </>
        )}
        {letter.note && (
          <>
            <dt>{lx("residentNote")}</dt>
            <dd>{letter.note}</dd>
          </>
        )}
      </dl>
      {letter.subject && letter.subject.length > 0 && (
        <>
          <h2>{lx("subjectTitle")}</h2>
          <dl class="facts card">
            {letter.subject.map((p) => (
              <Fragment key={p.name}>
                <dt>{p.label}</dt>
                <dd>{p.value || <span class="letters-missing">{lx("notInRegistry")}</span>}</dd>
              </Fragment>
            ))}
          </dl>
        </>
      )}
      <p class="muted">{lx("identityNote")}</p>
      {fields.length > 0 && (
        <>
          <h2>{lx("fieldsTitle")}</h2>
          <dl class="facts card">
            {fields.map((f) => {
              const v = letter.fields[f.name];
              return (
                <div key={f.name} class="letters-fact">
                  <dt>{f.label}</dt>
                  <dd>{Array.isArray(v) ? v.join(", ") : String(v)}</dd>
                </div>
              );
            })}
          </dl>
        </>
      )}
    </div>
  );
}

/** Number and finish in one step; the next number is suggested, a typed one is used as typed. */
function Finish(props: {
  letter: StaffLetter;
  write: (c: Change, m: (l: StaffLetter) => string) => Promise<void>;
}) {
  const { letter } = props;
  const next = useResource(
    () => api.get<{ nomorSurat: string }>("/api/surat/next-number", { query: { jenis: letter.jenis } }),
    [letter.jenis],
  );
  const suggested = next.state === "ready" ? next.data.nomorSurat : "";
  const [nomor, setNomor] = useState("");
  const [tanggal, setTanggal] = useState(jakartaDay(new Date()));
  useEffect(() => {
    if (suggested && !nomor) {
      setNomor(suggested);
    }
  }, [suggested]);
  const form = useSubmit(() => {
    const typed = nomor.trim();
    return props.write(
      {
        status: "selesai",
        // The suggestion is not reserved: left as suggested, the API takes the next number itself.
        nomorSurat: typed && typed !== suggested ? typed : undefined,
        tanggalSurat: tanggal || undefined,
      },
      (l) => lx("finished", { n: l.nomorSurat ?? "" }),
    );
  });
  const incomplete = next.state === "error" && next.error instanceof ApiError && next.error.status === 409;
  return (
    <form class="card" onSubmit={form.submit} aria-labelledby="letter-finish">
      <h2 id="letter-finish">{lx("finishTitle")}</h2>
      {next.state === "ready" && <p class="muted">{lx("suggested", { n: suggested })}</p>}
      {next.state === "error" && (
        <p class="alert" role="alert">
          {lx("noSuggestion")} {problemText(next.error)}{" "}
          {incomplete && <a href="/pengurus/surat/pengaturan">{lx("settingsLink")}</a>}
        </p>
      )}
      <Field
        label={lx("number")}
        name="nomorSurat"
        value={nomor}
        onInput={setNomor}
        error={form.fields.nomorSurat}
      />
      <Field
        label={lx("letterDate")}
        name="tanggalSurat"
        type="date"
        value={tanggal}
        onInput={setTanggal}
        error={form.fields.tanggalSurat}
      />
      <FormError error={form.error} />
      <Submit busy={form.busy}>{lx("finish")}</Submit>
    </form>
  );
}

/** The other moves of an open request: in progress, back for correction, declined (with a reason). */
function Moves(props: { letter: StaffLetter; write: (c: Change, m: () => string | null) => Promise<void> }) {
  const [asking, setAsking] = useState<"perlu_perbaikan" | "ditolak" | null>(null);
  const [reason, setReason] = useState("");
  const move = useSubmit(() => props.write({ status: "diproses" }, () => null));
  const decide = useSubmit(async () => {
    if (asking) {
      await props.write({ status: asking, note: reason.trim() }, () => null);
      setAsking(null);
    }
  });
  return (
    <div class="card">
      <div class="actions">
        {props.letter.status === "diajukan" && (
          <button type="button" onClick={() => move.submit()} disabled={move.busy}>
            {lx("process")}
          </button>
        )}
        <button type="button" onClick={() => setAsking("perlu_perbaikan")}>
          {lx("sendBack")}
        </button>
        <button type="button" class="danger" onClick={() => setAsking("ditolak")}>
          {lx("decline")}
        </button>
      </div>
      <FormError error={move.error} />
      <Confirm
        open={asking !== null}
        title={asking === "ditolak" ? lx("declineTitle") : lx("sendBackTitle")}
        confirmLabel={asking === "ditolak" ? lx("decline") : lx("sendBack")}
        danger={asking === "ditolak"}
        busy={decide.busy}
        error={decide.error}
        onCancel={() => setAsking(null)}
        onConfirm={() => decide.submit()}
      >
        <TextArea
          label={lx("reason")}
          name="note"
          value={reason}
          onInput={setReason}
          required
          maxLength={1000}
          error={decide.fields.note}
        />
      </Confirm>
    </div>
  );
}

/** Where the finished letter stands with the RW, and issuing it without the RW when the RT decides to. */
function RwState(props: { letter: StaffLetter; path: string; after: (m: string | null) => void }) {
  const ack = props.letter.rwAcknowledgement;
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const issue = useSubmit(async (key) => {
    await api.post(`${props.path}/issue-without-rw`, { reason: reason.trim() }, { idempotencyKey: key });
    setOpen(false);
    props.after(null);
  });
  if (!ack) {
    return null;
  }
  const at = ack.at ? dateTime(ack.at) : "";
  return (
    <section class="card" aria-labelledby="letter-rw">
      <h2 id="letter-rw">{lx("rwTitle")}</h2>
      <p role="status">{lx(`rw_${ack.status}`, { name: ack.name ?? "—", at, reason: ack.reason ?? "—" })}</p>
      {props.letter.awaitingRw && (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            {lx("issueWithoutRw")}
          </button>
          <Confirm
            open={open}
            title={lx("issueWithoutRwTitle")}
            confirmLabel={lx("issueWithoutRw")}
            busy={issue.busy}
            error={issue.error}
            onCancel={() => setOpen(false)}
            onConfirm={() => issue.submit()}
          >
            <TextArea
              label={lx("issueWithoutRwReason")}
              name="reason"
              value={reason}
              onInput={setReason}
              required
              maxLength={1000}
              error={issue.fields.reason}
            />
          </Confirm>
        </>
      )}
    </section>
  );
}

/** The PDF as the resident will get it, read with the session's token and saved by the browser. */
function Pdf({ letter, path }: { letter: StaffLetter; path: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const blob = await api.blob(`${path}/pdf`);
      saveBlob(blob, `surat-${(letter.nomorSurat ?? letter.id).replace(/[^A-Za-z0-9.-]+/g, "-")}.pdf`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="letter-pdf">
      <h2 id="letter-pdf">{lx("pdfTitle")}</h2>
      <button
        type="button"
        class="primary"
        disabled={busy}
        aria-busy={busy ? "true" : undefined}
        onClick={download}
      >
        {lx("downloadPdf")}
      </button>
      {error ? (
        <p class="alert" role="alert">
          {problemText(error)}
        </p>
      ) : null}
    </section>
  );
}

function History({ letter }: { letter: StaffLetter }) {
  if (!letter.history?.length) {
    return null;
  }
  return (
    <section aria-labelledby="letter-history">
      <h2 id="letter-history">{lx("history")}</h2>
      <ol class="timeline">
        {letter.history.map((e) => (
          <li key={`${e.createdAt}-${e.status}`}>
            <strong>{(lx as (k: string) => string)(e.status)}</strong> · {dateTime(e.createdAt)}
            {e.byStaff ? ` · ${lx("byStaff")}` : ""}
            {e.note ? <p>{e.note}</p> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
