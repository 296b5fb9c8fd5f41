import { useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type Answer, api } from "../../api/client";
import { dateTime } from "../../format";
import { Field, FormError, Submit, TextArea, useSubmit } from "../../ui/forms";
import { type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { Confirm, ConflictNotice, currentEtag, DataTable, isConflict } from "../ui";
import { tx } from "./text";

interface Event {
  id: string;
  title: string;
  description: string;
  place: string;
  start: string;
  end: string;
}

/** An instant as a `datetime-local` value in Asia/Jakarta (UTC+7, no daylight saving), and back. */
const JAKARTA_MS = 7 * 3_600_000;
const toLocal = (iso: string) => new Date(Date.parse(iso) + JAKARTA_MS).toISOString().slice(0, 16);
const fromLocal = (local: string) => (local ? `${local}:00+07:00` : "");

/** `/pengurus/konten/agenda`: events that have not ended yet, soonest first. */
export function AgendaList() {
  const list = usePaged(
    (cursor) => api.get<Page<Event>>("/api/agenda", { query: { cursor, limit: 20 } }),
    [],
  );
  return (
    <section aria-labelledby="konten-agenda-title">
      <h1 id="konten-agenda-title">{tx("agendaTitle")}</h1>
      <p>
        <a class="button" href="/pengurus/konten/agenda/baru">
          {tx("newAgenda")}
        </a>
      </p>
      <ShowPaged paged={list} empty={tx("noAgenda")} lines={4}>
        {(items) => (
          <DataTable
            caption={tx("agendaTitle")}
            rowKey={(e) => e.id}
            rows={items}
            columns={[
              {
                label: tx("titleLabel"),
                cell: (e) => <a href={`/pengurus/konten/agenda/${e.id}`}>{e.title}</a>,
              },
              { label: tx("place"), cell: (e) => e.place },
              { label: tx("start"), cell: (e) => dateTime(e.start) },
              { label: tx("end"), cell: (e) => dateTime(e.end) },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}

/** `/pengurus/konten/agenda/baru` and `/pengurus/konten/agenda/:id`: write, edit, delete an event. */
export function AgendaEditor({ params }: { params: { id?: string } }) {
  return (
    <section aria-labelledby="konten-agenda-edit-title">
      <p>
        <a href="/pengurus/konten/agenda">{tx("backAgenda")}</a>
      </p>
      {params.id && params.id !== "baru" ? <ExistingEvent id={params.id} /> : <EventForm />}
    </section>
  );
}

function ExistingEvent({ id }: { id: string }) {
  const path = `/api/agenda/${id}`;
  const event = useResource(() => api.read<Event>(path), [path]);
  return (
    <Show resource={event} lines={6}>
      {(answer) => (
        <EventForm
          key={answer.etag}
          answer={answer}
          reload={() => event.state === "ready" && event.reload()}
        />
      )}
    </Show>
  );
}

function EventForm(props: { answer?: Answer<Event>; reload?: () => void }) {
  const { route } = useLocation();
  const start0 = props.answer?.data;
  const etag = useRef(props.answer?.etag ?? null);
  const [event, setEvent] = useState(start0);
  const [title, setTitle] = useState(start0?.title ?? "");
  const [place, setPlace] = useState(start0?.place ?? "");
  const [description, setDescription] = useState(start0?.description ?? "");
  const [start, setStart] = useState(start0 ? toLocal(start0.start) : "");
  const [end, setEnd] = useState(start0 ? toLocal(start0.end) : "");
  const [saved, setSaved] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const body = () => ({
    title: title.trim(),
    place: place.trim(),
    description,
    start: fromLocal(start),
    end: fromLocal(end),
  });
  const save = useSubmit(async (key) => {
    if (!event) {
      const made = await api.post<Event>("/api/agenda", body(), { idempotencyKey: key });
      route(`/pengurus/konten/agenda/${made.id}`);
      return true;
    }
    const a = await api.put<Event>(`/api/agenda/${event.id}`, body(), etag.current);
    etag.current = a.etag ?? etag.current;
    setEvent(a.data);
    setSaved(true);
    return true;
  });
  const remove = useSubmit(async () => {
    await api.del(`/api/agenda/${event?.id}`, etag.current);
    return true;
  });
  const mine = async () => {
    etag.current = await currentEtag(`/api/agenda/${event?.id}`);
    await save.submit();
  };
  return (
    <>
      <h1 id="konten-agenda-edit-title">{event ? tx("editAgenda") : tx("newAgenda")}</h1>
      {saved && (
        <p class="notice" role="status">
          {tx("saved")}
        </p>
      )}
      <form
        class="card konten-narrow"
        onSubmit={(e) => {
          setSaved(false);
          return save.submit(e);
        }}
      >
        <Field
          label={tx("titleLabel")}
          name="title"
          value={title}
          onInput={setTitle}
          required
          minLength={3}
          error={save.fields.title}
        />
        <Field
          label={tx("place")}
          name="place"
          value={place}
          onInput={setPlace}
          required
          minLength={2}
          error={save.fields.place}
        />
        <Field
          label={tx("start")}
          name="start"
          type="datetime-local"
          value={start}
          onInput={setStart}
          required
          error={save.fields.start}
        />
        <Field
          label={tx("end")}
          name="end"
          type="datetime-local"
          value={end}
          onInput={setEnd}
          required
          error={save.fields.end}
        />
        <TextArea
          label={tx("description")}
          name="description"
          value={description}
          onInput={setDescription}
          rows={4}
          maxLength={5000}
          error={save.fields.description}
        />
        {isConflict(save.error) ? (
          <ConflictNotice busy={save.busy} onTheirs={() => props.reload?.()} onMine={mine} />
        ) : (
          <FormError error={save.error} />
        )}
        <div class="actions">
          <Submit busy={save.busy}>{tx("save")}</Submit>
          {event && (
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              {tx("delete")}
            </button>
          )}
        </div>
      </form>
      <Confirm
        open={deleting}
        title={tx("deleteConfirm", { title: event?.title ?? "" })}
        confirmLabel={tx("delete")}
        danger
        busy={remove.busy}
        error={remove.error}
        onCancel={() => setDeleting(false)}
        onConfirm={async () => {
          if (await remove.submit()) {
            setDeleting(false);
            route("/pengurus/konten/agenda");
          }
        }}
      />
    </>
  );
}
