import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { jakartaDay } from "../../format";
import { useLanguage } from "../../i18n";
import { Field, FormError, Select, Submit, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { optional } from "./CardForm";
import { humanize, tx } from "./text";
import {
  BASE,
  type CardDetail,
  EDUCATIONS,
  HOME,
  MARITAL_STATUSES,
  type Member,
  RELATIONSHIPS,
  RELIGIONS,
  RESIDENCE_STATUSES,
} from "./types";

type Mode = "new" | "birth" | "edit";

const EDITABLE = [
  "name",
  "nik",
  "relationship",
  "sex",
  "birthDate",
  "birthPlace",
  "religion",
  "education",
  "occupation",
  "maritalStatus",
  "residenceStatus",
] as const;

/**
 * A member of a card: added (`/anggota/baru`), born (`/kelahiran`: a life event, POST /mutasi), or
 * edited (`/anggota/:memberId`). The API keeps its rules (one head, NIK checks, a unique NIK) and its
 * refusals are shown beside the fields.
 */
export function MemberForm({ params }: { params: { id: string; memberId?: string } }) {
  useLanguage();
  const { path: here } = useLocation();
  const mode: Mode = params.memberId ? "edit" : here.endsWith("/kelahiran") ? "birth" : "new";
  const card = useResource(() => api.get<CardDetail>(`${BASE}/kk/${params.id}`), [params.id]);
  return (
    <section aria-labelledby="member-title">
      <p>
        <a href={`${HOME}/kk/${params.id}`}>← {tx("back")}</a>
      </p>
      <Show resource={card}>
        {(c) => {
          const member = c.members.find((m) => m.id === params.memberId);
          return <MemberFields card={c} mode={mode} member={member} />;
        }}
      </Show>
    </section>
  );
}

function MemberFields(props: { card: CardDetail; mode: Mode; member?: Member }) {
  const { route } = useLocation();
  const { card, mode, member } = props;
  const start: Record<string, string> = member
    ? Object.fromEntries(EDITABLE.map((k) => [k, (member[k] as string | null) ?? ""]))
    : { sex: "L", relationship: "anak", date: jakartaDay(new Date()) };
  const [v, setV] = useState(start);
  const set = (name: string) => (value: string) => setV((old) => ({ ...old, [name]: value }));
  const { submit, busy, error, fields } = useSubmit(async (key) => {
    const filled = Object.fromEntries(Object.entries(v).filter(([, value]) => value.trim() !== ""));
    if (mode === "edit" && member) {
      // Only what changed; a cleared optional field is sent as null.
      const body: Record<string, string | null> = {};
      for (const k of EDITABLE) {
        const now = (v[k] ?? "").trim();
        if (now !== (start[k] ?? "")) {
          body[k] = now === "" ? null : now;
        }
      }
      await api.put(`${BASE}/kk/${card.id}/members/${member.id}`, body, null);
    } else if (mode === "birth") {
      const { birthDate: _unused, ...rest } = filled;
      await api.post(
        `${BASE}/mutasi`,
        { kind: "lahir", familyCardId: card.id, ...rest },
        { idempotencyKey: key },
      );
    } else {
      await api.post(`${BASE}/kk/${card.id}/members`, filled, { idempotencyKey: key });
    }
    return true;
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
  const choice = (name: string, label: string, options: { value: string; label: string }[]) => (
    <Select
      label={label}
      name={name}
      value={v[name] ?? ""}
      onInput={set(name)}
      options={options}
      error={fields[name]}
    />
  );
  const relationships = RELATIONSHIPS.filter((r) => mode === "edit" || r !== "kepala_keluarga");
  const title =
    mode === "edit"
      ? tx("editMemberTitle", { name: member?.name ?? "" })
      : mode === "birth"
        ? tx("newBirthTitle", { kk: card.kkNumber })
        : tx("newMemberTitle", { kk: card.kkNumber });
  return (
    <>
      <h1 id="member-title">{title}</h1>
      <form
        class="reg-form card"
        onSubmit={async (e) => {
          if (await submit(e)) {
            route(`${HOME}/kk/${card.id}`);
          }
        }}
      >
        {field("name", tx("name"), { required: true })}
        {field("nik", tx("nik"), { required: true, inputMode: "numeric" })}
        {choice(
          "relationship",
          tx("relationship"),
          relationships.map((r) => ({ value: r, label: humanize(r) })),
        )}
        {choice("sex", tx("sex"), [
          { value: "L", label: tx("sexL") },
          { value: "P", label: tx("sexP") },
        ])}
        {mode === "birth" ? field("date", tx("birthDate"), { type: "date", required: true }) : null}
        {field("birthPlace", tx("birthPlace"))}
        {mode !== "birth" ? field("birthDate", tx("birthDate"), { type: "date" }) : null}
        {choice("religion", tx("religion"), optional(RELIGIONS))}
        {mode !== "birth" && (
          <>
            {choice("education", tx("education"), optional(EDUCATIONS))}
            {field("occupation", tx("occupation"))}
            {choice("maritalStatus", tx("marital"), optional(MARITAL_STATUSES))}
            {choice("residenceStatus", tx("residence"), optional(RESIDENCE_STATUSES))}
          </>
        )}
        <FormError error={error} />
        <Submit busy={busy}>{tx("saveMember")}</Submit>
      </form>
    </>
  );
}
