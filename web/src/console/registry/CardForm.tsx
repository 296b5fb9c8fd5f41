import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { useLanguage } from "../../i18n";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { ConflictNotice, currentEtag, isConflict } from "../ui";
import { humanize, tx } from "./text";
import {
  BASE,
  type CardDetail,
  EDUCATIONS,
  HOME,
  MARITAL_STATUSES,
  RELIGIONS,
  RESIDENCE_STATUSES,
  type Unit,
} from "./types";
import { allUnits } from "./units-data";

const unitOptions = (units: Unit[]) => [
  { value: "", label: tx("chooseUnit") },
  ...units.map((u) => ({ value: u.id, label: tx("houseText", { block: u.block, number: u.number }) })),
];
export const optional = (values: string[]) => [
  { value: "", label: tx("none") },
  ...values.map((v) => ({ value: v, label: humanize(v) })),
];

/** `/pengurus/warga/baru` (a new card with its head) or `/pengurus/warga/kk/:id/ubah` (an edit). */
export function CardForm({ params }: { params: { id?: string } }) {
  useLanguage();
  return params.id ? <EditCard id={params.id} /> : <NewCard />;
}

function NewCard() {
  const { route } = useLocation();
  const units = useResource(allUnits);
  const [v, setV] = useState<Record<string, string>>({ headSex: "L", headCitizenship: "WNI" });
  const set = (name: string) => (value: string) => setV((old) => ({ ...old, [name]: value }));
  const { submit, busy, error, fields } = useSubmit((key) => {
    const body = Object.fromEntries(Object.entries(v).filter(([, value]) => value.trim() !== ""));
    return api.post<CardDetail>(`${BASE}/kk`, body, { idempotencyKey: key });
  });
  const field = (name: string, label: string, extra: Partial<Parameters<typeof Field>[0]> = {}) => (
    <Field
      label={label}
      name={name}
      value={v[name] ?? ""}
      onInput={set(name)}
      error={fields[name]}
      {...extra}
    />
  );
  const choice = (
    name: string,
    label: string,
    options: { value: string; label: string }[],
    required = false,
  ) => (
    <Select
      label={label}
      name={name}
      value={v[name] ?? ""}
      onInput={set(name)}
      options={options}
      error={fields[name]}
      required={required}
    />
  );
  return (
    <section aria-labelledby="kk-new-title">
      <p>
        <a href={HOME}>← {tx("back")}</a>
      </p>
      <h1 id="kk-new-title">{tx("newCardTitle")}</h1>
      <Show resource={units}>
        {(list) => (
          <form
            class="reg-form card"
            onSubmit={async (e) => {
              const card = await submit(e);
              if (card) {
                route(`${HOME}/kk/${card.id}`);
              }
            }}
          >
            {field("kkNumber", tx("kk"), { required: true, inputMode: "numeric" })}
            {choice("unitId", tx("unit"), unitOptions(list), true)}
            {field("headName", tx("headName"), { required: true })}
            {field("headNik", tx("headNik"), { required: true, inputMode: "numeric" })}
            {choice("headSex", tx("headSex"), [
              { value: "L", label: tx("sexL") },
              { value: "P", label: tx("sexP") },
            ])}
            {field("headBirthPlace", tx("birthPlace"))}
            {field("headBirthDate", tx("birthDate"), { type: "date" })}
            {field("headWhatsapp", tx("whatsapp"), { type: "tel", inputMode: "tel" })}
            {choice("headReligion", tx("religion"), optional(RELIGIONS))}
            {choice("headEducation", tx("education"), optional(EDUCATIONS))}
            {field("headOccupation", tx("occupation"))}
            {choice("headMaritalStatus", tx("marital"), optional(MARITAL_STATUSES))}
            {choice("headResidenceStatus", tx("residence"), optional(RESIDENCE_STATUSES))}
            <TextArea
              label={tx("notes")}
              name="notes"
              value={v.notes ?? ""}
              onInput={set("notes")}
              error={fields.notes}
            />
            <FormError error={error} />
            <Submit busy={busy}>{tx("create")}</Submit>
          </form>
        )}
      </Show>
    </section>
  );
}

interface CardFields {
  kkNumber: string;
  unitId: string;
  headWhatsapp: string;
  notes: string;
}

const fieldsOf = (c: CardDetail): CardFields => ({
  kkNumber: c.kkNumber,
  unitId: c.unitId,
  headWhatsapp: c.headWhatsapp ?? "",
  notes: c.notes ?? "",
});

/**
 * An edit of a card read with its ETag, saved with If-Match: when another officer saved first (412) the
 * form keeps what was typed and the officer chooses theirs (reload) or mine (save over the latest).
 */
function EditCard({ id }: { id: string }) {
  const { route } = useLocation();
  const path = `${BASE}/kk/${id}`;
  const loaded = useResource(() => Promise.all([api.read<CardDetail>(path), allUnits()]), [id]);
  const [base, setBase] = useState<{ fields: CardFields; etag: string | null; kk: string } | null>(null);
  const [v, setV] = useState<CardFields | null>(null);
  const [conflict, setConflict] = useState(false);
  useEffect(() => {
    if (loaded.state === "ready") {
      const [answer] = loaded.data;
      const f = fieldsOf(answer.data);
      setBase({ fields: f, etag: answer.etag, kk: answer.data.kkNumber });
      setV(f);
      setConflict(false);
    }
  }, [loaded]);
  const changes = () => {
    if (!base || !v) {
      return {};
    }
    const out: Record<string, string | null> = {};
    for (const k of Object.keys(v) as (keyof CardFields)[]) {
      if (v[k].trim() !== base.fields[k]) {
        out[k] = v[k].trim() === "" && (k === "headWhatsapp" || k === "notes") ? null : v[k].trim();
      }
    }
    return out;
  };
  const save = async (etag: string | null) => {
    await api.put<CardDetail>(path, changes(), etag);
    route(`${HOME}/kk/${id}`);
  };
  const { submit, busy, error, fields } = useSubmit(async () => {
    try {
      await save(base?.etag ?? null);
    } catch (caught) {
      if (isConflict(caught)) {
        setConflict(true);
        return;
      }
      throw caught;
    }
  });
  const mine = useSubmit(async () => {
    await save(await currentEtag(path));
  });
  return (
    <section aria-labelledby="kk-edit-title">
      <p>
        <a href={`${HOME}/kk/${id}`}>← {tx("back")}</a>
      </p>
      <Show resource={loaded}>
        {([, units]) =>
          base && v ? (
            <>
              <h1 id="kk-edit-title">{tx("editCardTitle", { kk: base.kk })}</h1>
              <form class="reg-form card" onSubmit={submit}>
                <Field
                  label={tx("kk")}
                  name="kkNumber"
                  value={v.kkNumber}
                  inputMode="numeric"
                  required
                  onInput={(x) => setV({ ...v, kkNumber: x })}
                  error={fields.kkNumber}
                />
                <Select
                  label={tx("unit")}
                  name="unitId"
                  value={v.unitId}
                  required
                  onInput={(x) => setV({ ...v, unitId: x })}
                  options={unitOptions(units)}
                  error={fields.unitId}
                />
                <Field
                  label={tx("whatsapp")}
                  name="headWhatsapp"
                  type="tel"
                  inputMode="tel"
                  value={v.headWhatsapp}
                  onInput={(x) => setV({ ...v, headWhatsapp: x })}
                  error={fields.headWhatsapp}
                />
                <TextArea
                  label={tx("notes")}
                  name="notes"
                  value={v.notes}
                  onInput={(x) => setV({ ...v, notes: x })}
                  error={fields.notes}
                />
                {conflict && (
                  <ConflictNotice
                    busy={mine.busy}
                    onTheirs={() => loaded.state === "ready" && loaded.reload()}
                    onMine={() => mine.submit()}
                  />
                )}
                <FormError error={error ?? mine.error} />
                {!conflict && <Submit busy={busy}>{tx("create")}</Submit>}
              </form>
            </>
          ) : null
        }
      </Show>
    </section>
  );
}
