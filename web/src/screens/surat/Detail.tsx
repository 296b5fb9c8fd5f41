import { useState } from "preact/hooks";
import { api, saveBlob } from "../../api/client";
import { date, dateTime } from "../../format";
import { type MessageKey, t } from "../../i18n";
import { FormError, Submit, TextArea, useSubmit } from "../../ui/forms";
import { problemText } from "../../ui/problem";
import { Show, useResource } from "../../ui/states";
import { type FieldValues, LetterFields, payloadOf, valuesOf } from "./fields";
import { CANCELLABLE, type Household, type Jenis, type Letter } from "./types";

const statusText = (status: string) => t(`letter.${status}` as MessageKey);

/** `/surat/:id`: where the letter stands and how it got there; the PDF once finished; cancel or correct. */
export function LetterDetail({ params }: { params: { id: string } }) {
  const letter = useResource(() => api.get<Letter>(`/api/surat/${params.id}`), [params.id]);
  return (
    <section aria-labelledby="surat-detail-title">
      <p>
        <a href="/surat">{t("surat.backToList")}</a>
      </p>
      <Show resource={letter} lines={6}>
        {(l) => <LetterView letter={l} reload={letter.state === "ready" ? letter.reload : () => undefined} />}
      </Show>
    </section>
  );
}

function LetterView({ letter, reload }: { letter: Letter; reload: () => void }) {
  return (
    <>
      <h1 id="surat-detail-title">{letter.jenisName}</h1>
      <p>
        <span class={`badge badge-${letter.status}`}>
          {letter.awaitingRw ? t("surat.awaitingRw") : statusText(letter.status)}
        </span>
      </p>
      <dl class="facts card">
        <dt>{t("surat.subject")}</dt>
        <dd>{letter.subjectName}</dd>
        <dt>{t("surat.keperluan")}</dt>
        <dd>{letter.keperluan}</dd>
        <dt>{t("surat.requested")}</dt>
        <dd>{date(letter.createdAt)}</dd>
        {letter.nomorSurat && (
          <>
            <dt>{t("surat.number")}</dt>
            <dd>{letter.nomorSurat}</dd>
          </>
        )}
      </dl>
      {letter.note && (letter.status === "perlu_perbaikan" || letter.status === "ditolak") && (
        <div class="card surat-note" role="note">
          <h2>{t(letter.status === "ditolak" ? "surat.noteRefused" : "surat.noteFix")}</h2>
          <p>{letter.note}</p>
        </div>
      )}
      {letter.status === "selesai" &&
        (letter.awaitingRw ? (
          // Issue 45: no PDF for the resident until the RW acknowledged it (or the RT issued it without).
          <div class="card" role="status">
            <p>{t("surat.awaitingRwText")}</p>
          </div>
        ) : (
          <Download letter={letter} />
        ))}
      {letter.status === "perlu_perbaikan" && <Resubmit letter={letter} done={reload} />}
      {CANCELLABLE.has(letter.status) && <Cancel letter={letter} done={reload} />}
      <History letter={letter} />
    </>
  );
}

function Download({ letter }: { letter: Letter }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const blob = await api.blob(`/api/surat/${letter.id}/pdf`);
      saveBlob(blob, `surat-${(letter.nomorSurat ?? letter.id).replace(/[^A-Za-z0-9.-]+/g, "-")}.pdf`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="card">
      <p>{t("surat.ready")}</p>
      <button
        type="button"
        class="primary"
        onClick={download}
        disabled={busy}
        aria-busy={busy ? "true" : undefined}
      >
        {busy ? t("common.loading") : t("surat.download")}
      </button>
      {error ? (
        <p class="alert" role="alert">
          {problemText(error)}
        </p>
      ) : null}
    </div>
  );
}

/** Sent back for correction: the same form as the request, filled with what was sent, to fix and send again. */
function Resubmit({ letter, done }: { letter: Letter; done: () => void }) {
  const jenis = useResource(() => api.get<{ items: Jenis[] }>("/api/surat/jenis"));
  const household = useResource(() => api.get<Household>("/api/kependudukan/household"));
  const [keperluan, setKeperluan] = useState(letter.keperluan);
  const [values, setValues] = useState<FieldValues>(valuesOf(letter.fields));
  const form = useSubmit(async (key) => {
    const def = jenis.state === "ready" ? jenis.data.items.find((j) => j.code === letter.jenis) : undefined;
    return api.post<Letter>(
      `/api/surat/${letter.id}/resubmit`,
      { keperluan: keperluan.trim(), ...(def ? { fields: payloadOf(def, values) } : {}) },
      { idempotencyKey: key },
    );
  });
  const onSubmit = async (event: Event) => {
    if (await form.submit(event)) {
      done();
    }
  };
  return (
    <section class="card" aria-labelledby="surat-fix-title">
      <h2 id="surat-fix-title">{t("surat.fixTitle")}</h2>
      <Show resource={jenis} lines={4}>
        {(list) => {
          const def = list.items.find((j) => j.code === letter.jenis);
          return (
            <form onSubmit={onSubmit}>
              <TextArea
                label={t("surat.keperluan")}
                name="keperluan"
                value={keperluan}
                onInput={setKeperluan}
                required
                minLength={3}
                maxLength={500}
                rows={2}
                error={form.fields.keperluan}
              />
              {def && (
                <LetterFields
                  jenis={def}
                  values={values}
                  onChange={setValues}
                  errors={form.fields}
                  members={household.state === "ready" ? household.data.members : []}
                />
              )}
              <FormError error={form.error} />
              <Submit busy={form.busy}>{t("surat.resubmit")}</Submit>
            </form>
          );
        }}
      </Show>
    </section>
  );
}

/** Cancelling asks once more (with an optional reason) before it is sent: it cannot be undone. */
function Cancel({ letter, done }: { letter: Letter; done: () => void }) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  const form = useSubmit((key) =>
    api.post<Letter>(`/api/surat/${letter.id}/cancel`, reason.trim() ? { reason: reason.trim() } : {}, {
      idempotencyKey: key,
    }),
  );
  const onSubmit = async (event: Event) => {
    if (await form.submit(event)) {
      done();
    }
  };
  if (!asking) {
    return (
      <p>
        <button type="button" class="danger" onClick={() => setAsking(true)}>
          {t("surat.cancel")}
        </button>
      </p>
    );
  }
  return (
    <form class="card" onSubmit={onSubmit} aria-labelledby="surat-cancel-title">
      <h2 id="surat-cancel-title">{t("surat.cancelTitle")}</h2>
      <TextArea
        label={t("surat.cancelReason")}
        name="reason"
        value={reason}
        onInput={setReason}
        maxLength={500}
        rows={2}
        error={form.fields.reason}
      />
      <FormError error={form.error} />
      <Submit busy={form.busy}>{t("surat.cancelConfirm")}</Submit>
      <button type="button" class="link-button" onClick={() => setAsking(false)}>
        {t("surat.cancelKeep")}
      </button>
    </form>
  );
}

function History({ letter }: { letter: Letter }) {
  const events = letter.history ?? [];
  if (events.length === 0) {
    return null;
  }
  return (
    <section aria-labelledby="surat-history-title">
      <h2 id="surat-history-title">{t("surat.history")}</h2>
      <ol class="timeline">
        {events.map((e, i) => (
          <li key={`${e.createdAt}-${i}`}>
            <strong>
              {e.status === "selesai" && letter.awaitingRw
                ? t("surat.finishedAwaitingRw")
                : statusText(e.status)}
            </strong>
            <span class="muted">{dateTime(e.createdAt)}</span>
            {e.note && <p>{e.note}</p>}
          </li>
        ))}
      </ol>
    </section>
  );
}
