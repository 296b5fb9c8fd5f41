import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date, displayPlate, jakartaDay } from "../../format";
import { useLanguage } from "../../i18n";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { Confirm, DataTable } from "../ui";
import { houseOf, statusText } from "./List";
import { humanize, tx } from "./text";
import { BASE, type CardDetail as Card, HOME, type Member, VEHICLE_KINDS, type Vehicle } from "./types";

type Event = { kind: "pindah_keluar" } | { kind: "meninggal"; member: Member } | null;

/** A family card: its facts, members and vehicles, and the life events recorded on it. */
export function CardDetail({ params }: { params: { id: string } }) {
  useLanguage();
  const card = useResource(() => api.get<Card>(`${BASE}/kk/${params.id}`), [params.id]);
  const [event, setEvent] = useState<Event>(null);
  const [done, setDone] = useState<string | null>(null);
  return (
    <Show resource={card} lines={8}>
      {(c) => (
        <section aria-labelledby="kk-title">
          <p>
            <a href={HOME}>← {tx("back")}</a>
          </p>
          <h1 id="kk-title">{tx("card", { kk: c.kkNumber })}</h1>
          {done && (
            <p class="notice" role="status">
              {done}
            </p>
          )}
          {c.status !== "aktif" && (
            <p class="notice" role="status">
              {tx("inactive", { status: statusText(c.status) })}
            </p>
          )}
          <dl class="facts card">
            <dt>{tx("head")}</dt>
            <dd>{c.headName}</dd>
            <dt>{tx("headNik")}</dt>
            <dd class="reg-mono">{c.headNik}</dd>
            <dt>{tx("house")}</dt>
            <dd>{houseOf(c)}</dd>
            <dt>{tx("status")}</dt>
            <dd>
              {statusText(c.status)}
              {c.statusDate ? ` (${date(c.statusDate)})` : ""}
            </dd>
            <dt>{tx("whatsapp")}</dt>
            <dd>{c.headWhatsapp ?? tx("none")}</dd>
            <dt>{tx("notes")}</dt>
            <dd class="prewrap">{c.notes ?? tx("none")}</dd>
          </dl>
          <div class="actions">
            <a class="button" href={`${HOME}/kk/${c.id}/ubah`}>
              {tx("editCard")}
            </a>
            {c.status === "aktif" && (
              <>
                <a class="button" href={`${HOME}/kk/${c.id}/anggota/baru`}>
                  {tx("addMember")}
                </a>
                <a class="button" href={`${HOME}/kk/${c.id}/kelahiran`}>
                  {tx("birthEvent")}
                </a>
                <button type="button" class="danger" onClick={() => setEvent({ kind: "pindah_keluar" })}>
                  {tx("moveOut")}
                </button>
              </>
            )}
          </div>

          <h2>{tx("membersTitle")}</h2>
          <DataTable
            caption={tx("membersCaption")}
            rows={c.members}
            rowKey={(m) => m.id}
            columns={[
              { label: tx("name"), cell: (m) => m.name },
              { label: tx("nik"), cell: (m) => <span class="reg-mono">{m.nik}</span> },
              { label: tx("relationship"), cell: (m) => humanize(m.relationship) },
              { label: tx("sex"), cell: (m) => (m.sex === "L" ? tx("sexL") : tx("sexP")) },
              {
                label: tx("birth"),
                cell: (m) =>
                  [m.birthPlace, m.birthDate ? date(m.birthDate) : null].filter(Boolean).join(", ") ||
                  tx("none"),
              },
              {
                label: tx("living"),
                cell: (m) =>
                  m.livingStatus === "hidup"
                    ? tx("alive")
                    : tx("deceased", { date: m.deathDate ? date(m.deathDate) : "" }),
              },
              {
                label: tx("actions"),
                cell: (m) => (
                  <span class="reg-row-actions">
                    <a
                      href={`${HOME}/kk/${c.id}/anggota/${m.id}`}
                      aria-label={`${tx("editMember")} ${m.name}`}
                    >
                      {tx("editMember")}
                    </a>
                    {m.livingStatus === "hidup" && c.status === "aktif" && (
                      <button
                        type="button"
                        class="reg-small"
                        aria-label={`${tx("died")}: ${m.name}`}
                        onClick={() => setEvent({ kind: "meninggal", member: m })}
                      >
                        {tx("died")}
                      </button>
                    )}
                  </span>
                ),
              },
            ]}
          />

          <h2>{tx("vehiclesTitle")}</h2>
          <Vehicles card={c} reload={card.state === "ready" ? card.reload : () => {}} />

          <EventDialog
            card={c}
            event={event}
            onClose={() => setEvent(null)}
            onDone={() => {
              setEvent(null);
              setDone(tx("recorded"));
              if (card.state === "ready") {
                card.reload();
              }
            }}
          />
        </section>
      )}
    </Show>
  );
}

/** Moving out (the whole card) or a death (one member): POST /mutasi, with the API's refusals shown. */
function EventDialog(props: { card: Card; event: Event; onClose: () => void; onDone: () => void }) {
  const [day, setDay] = useState(jakartaDay(new Date()));
  const [place, setPlace] = useState("");
  const [note, setNote] = useState("");
  const ev = props.event;
  const { submit, busy, error, fields } = useSubmit((key) =>
    api.post(
      `${BASE}/mutasi`,
      ev?.kind === "meninggal"
        ? {
            kind: "meninggal",
            memberId: ev.member.id,
            date: day,
            place: place || undefined,
            note: note || undefined,
          }
        : {
            kind: "pindah_keluar",
            familyCardId: props.card.id,
            date: day,
            place: place || undefined,
            note: note || undefined,
          },
      { idempotencyKey: key },
    ),
  );
  return (
    <Confirm
      open={ev !== null}
      title={ev?.kind === "meninggal" ? tx("diedTitle", { name: ev.member.name }) : tx("moveOutTitle")}
      confirmLabel={ev?.kind === "meninggal" ? tx("died") : tx("moveOut")}
      danger
      busy={busy}
      error={error}
      onCancel={props.onClose}
      onConfirm={async () => {
        if ((await submit()) !== undefined) {
          setPlace("");
          setNote("");
          props.onDone();
        }
      }}
    >
      <Field
        label={tx("date")}
        name="date"
        type="date"
        value={day}
        onInput={setDay}
        required
        error={fields.date}
      />
      <Field
        label={ev?.kind === "meninggal" ? tx("place") : tx("placeTo")}
        name="place"
        value={place}
        onInput={setPlace}
        error={fields.place}
      />
      <TextArea label={tx("note")} name="note" value={note} onInput={setNote} rows={2} error={fields.note} />
    </Confirm>
  );
}

/** The card's vehicles: listed, added, deleted. */
function Vehicles(props: { card: Card; reload: () => void }) {
  const [plate, setPlate] = useState("");
  const [kind, setKind] = useState("motor");
  const [brand, setBrand] = useState("");
  const [colour, setColour] = useState("");
  const [removing, setRemoving] = useState<Vehicle | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const add = useSubmit((key) =>
    api.post(
      `${BASE}/kk/${props.card.id}/vehicles`,
      { plate, kind, brand: brand || undefined, colour: colour || undefined },
      { idempotencyKey: key },
    ),
  );
  return (
    <>
      {props.card.vehicles.length === 0 ? (
        <p class="empty">{tx("noVehicles")}</p>
      ) : (
        <DataTable
          caption={tx("vehiclesCaption")}
          rows={props.card.vehicles}
          rowKey={(v) => v.id}
          columns={[
            {
              label: tx("plate"),
              cell: (v) => (
                <span class="reg-mono">
                  {v.plate}
                  {v.plateDuplicate ? (
                    <a class="reg-block" href={`${HOME}/plat-ganda`}>
                      {tx("plateDuplicate")}
                    </a>
                  ) : null}
                </span>
              ),
            },
            { label: tx("kind"), cell: (v) => humanize(v.kind) },
            { label: tx("brand"), cell: (v) => [v.brand, v.model].filter(Boolean).join(" ") || tx("none") },
            { label: tx("colour"), cell: (v) => v.colour ?? tx("none") },
            {
              label: tx("actions"),
              cell: (v) => (
                <button
                  type="button"
                  class="reg-small danger"
                  aria-label={`${tx("deleteVehicle")} ${v.plate}`}
                  onClick={() => {
                    setRemoveError(null);
                    setRemoving(v);
                  }}
                >
                  {tx("deleteVehicle")}
                </button>
              ),
            },
          ]}
        />
      )}
      {props.card.status === "aktif" && (
        <form
          class="card reg-form reg-inline"
          aria-label={tx("addVehicle")}
          onSubmit={async (e) => {
            if ((await add.submit(e)) !== undefined) {
              setPlate("");
              setBrand("");
              setColour("");
              props.reload();
            }
          }}
        >
          <h3>{tx("addVehicle")}</h3>
          <Field
            label={tx("plate")}
            name="plate"
            value={plate}
            onInput={setPlate}
            required
            error={add.fields.plate}
          />
          {plate.trim() !== "" && displayPlate(plate) !== null && displayPlate(plate) !== plate.trim() && (
            <p class="muted" aria-live="polite">
              {tx("plateSaved", { plate: displayPlate(plate) ?? "" })}
            </p>
          )}
          <Select
            label={tx("kind")}
            name="kind"
            value={kind}
            onInput={setKind}
            options={VEHICLE_KINDS.map((k) => ({ value: k, label: humanize(k) }))}
          />
          <Field label={tx("brand")} name="brand" value={brand} onInput={setBrand} error={add.fields.brand} />
          <Field
            label={tx("colour")}
            name="colour"
            value={colour}
            onInput={setColour}
            error={add.fields.colour}
          />
          <FormError error={add.error} />
          <Submit busy={add.busy}>{tx("addVehicle")}</Submit>
        </form>
      )}
      <Confirm
        open={removing !== null}
        title={tx("deleteVehicleTitle", { plate: removing?.plate ?? "" })}
        confirmLabel={tx("deleteVehicle")}
        danger
        error={removeError}
        onCancel={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) {
            return;
          }
          try {
            await api.del(`${BASE}/kk/${props.card.id}/vehicles/${removing.id}`);
            setRemoving(null);
            props.reload();
          } catch (caught) {
            setRemoveError(caught);
          }
        }}
      />
    </>
  );
}
