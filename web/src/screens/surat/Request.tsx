import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { t } from "../../i18n";
import { FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { type FieldValues, LetterFields, payloadOf } from "./fields";
import type { Household, HouseholdMember, Jenis, Letter } from "./types";

/** `/surat/baru` (`?jenis=` preselects a type): every type the API lists, each with its own form. */
export function RequestLetter() {
  const jenis = useResource(() => api.get<{ items: Jenis[] }>("/api/surat/jenis"));
  // Whom a letter may be for; without it (profile not complete yet) the resident asks for themself.
  const household = useResource(() => api.get<Household>("/api/kependudukan/household"));
  const members = household.state === "ready" ? household.data.members : [];
  return (
    <section aria-labelledby="surat-request-title">
      <p>
        <a href="/surat">{t("surat.backToList")}</a>
      </p>
      <h1 id="surat-request-title">{t("surat.requestTitle")}</h1>
      <Show resource={jenis} lines={6}>
        {(list) => <RequestForm types={list.items} members={members} />}
      </Show>
    </section>
  );
}

function RequestForm({ types, members }: { types: Jenis[]; members: HouseholdMember[] }) {
  const { route, query } = useLocation();
  const [code, setCode] = useState(types.some((j) => j.code === query.jenis) ? query.jenis : "");
  const [forWhom, setForWhom] = useState("self");
  const [keperluan, setKeperluan] = useState("");
  // One set of values per type, so switching type and back keeps what was typed.
  const [values, setValues] = useState<Record<string, FieldValues>>({});
  const chosen = types.find((j) => j.code === code);
  const form = useSubmit((key) =>
    api.post<Letter>(
      "/api/surat",
      {
        jenis: code,
        onBehalfOf: forWhom,
        keperluan: keperluan.trim(),
        fields: chosen ? payloadOf(chosen, values[code] ?? {}) : {},
      },
      { idempotencyKey: key },
    ),
  );
  const onSubmit = async (event: Event) => {
    const letter = await form.submit(event);
    if (letter) {
      route(`/surat/${letter.id}`);
    }
  };
  const others = members.filter((m) => !m.isMe && m.livingStatus === "hidup");
  return (
    <form class="card" onSubmit={onSubmit}>
      <Select
        label={t("surat.jenis")}
        name="jenis"
        value={code}
        onInput={setCode}
        required
        error={form.fields.jenis}
        options={[
          { value: "", label: t("surat.choose") },
          ...types.map((j) => ({ value: j.code, label: j.name })),
        ]}
      />
      {chosen && (
        <>
          <p class="muted">
            {chosen.description}
            {chosen.validityDays !== null && ` ${t("surat.validity", { days: chosen.validityDays })}`}
          </p>
          <Select
            label={t("surat.forWhom")}
            name="onBehalfOf"
            value={forWhom}
            onInput={setForWhom}
            error={form.fields.onBehalfOf}
            options={[
              { value: "self", label: t("surat.self") },
              ...others.map((m) => ({ value: m.id, label: m.name })),
            ]}
          />
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
          <LetterFields
            jenis={chosen}
            values={values[code] ?? {}}
            onChange={(v) => setValues({ ...values, [code]: v })}
            errors={form.fields}
            members={members}
          />
          {chosen.identity.length > 0 && (
            <p class="muted">
              {t("surat.identity", { fields: chosen.identity.map((i) => i.label).join(", ") })}
            </p>
          )}
          <FormError error={form.error} />
          <Submit busy={form.busy}>{t("surat.submit")}</Submit>
        </>
      )}
    </form>
  );
}
