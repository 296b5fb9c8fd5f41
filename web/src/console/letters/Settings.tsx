import { useState } from "preact/hooks";
import { type Answer, api } from "../../api/client";
import { useLanguage } from "../../i18n";
import { Field, FormError, Select, Submit, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { cx } from "../text";
import { ConflictNotice, currentEtag, isConflict } from "../ui";
import { lx } from "./text";
import type { LetterSettings } from "./types";

const PATH = "/api/surat/settings";
const TEXTS = [
  "rt",
  "rw",
  "kelurahan",
  "kecamatan",
  "kota",
  "provinsi",
  "address",
  "headName",
  "headTitle",
  "numberFormat",
] as const;
type TextName = (typeof TEXTS)[number];
type Values = Record<TextName, string> & { villageKind: "kelurahan" | "desa"; rwAcknowledgement: boolean };

const valuesOf = (s: LetterSettings): Values => ({
  ...(Object.fromEntries(TEXTS.map((n) => [n, s[n] ?? ""])) as Record<TextName, string>),
  villageKind: s.villageKind,
  rwAcknowledgement: s.rwAcknowledgement,
});

/** `/pengurus/surat/pengaturan`: the letterhead, signatory and numbering; what is still missing stands out. */
export function LetterSettingsScreen() {
  useLanguage();
  const settings = useResource(() => api.read<LetterSettings>(PATH));
  return (
    <section aria-labelledby="letters-settings-title" class="letters">
      <p>
        <a href="/pengurus/surat">{lx("back")}</a>
      </p>
      <h1 id="letters-settings-title">{lx("settingsTitle")}</h1>
      <Show resource={settings} lines={10}>
        {(answer) => (
          <SettingsForm
            key={answer.etag ?? ""}
            answer={answer}
            reload={settings.state === "ready" ? settings.reload : () => undefined}
          />
        )}
      </Show>
    </section>
  );
}

function SettingsForm({ answer, reload }: { answer: Answer<LetterSettings>; reload: () => void }) {
  const s = answer.data;
  const [values, setValues] = useState<Values>(valuesOf(s));
  const [conflict, setConflict] = useState(false);
  const [saved, setSaved] = useState(false);
  const set = (name: keyof Values) => (v: string) => {
    setSaved(false);
    setValues({ ...values, [name]: v });
  };
  const body = () => ({
    ...Object.fromEntries(TEXTS.map((n) => [n, values[n].trim() || null])),
    villageKind: values.villageKind,
    rwAcknowledgement: values.rwAcknowledgement,
  });
  const save = useSubmit(async () => {
    try {
      await api.put(PATH, body(), answer.etag);
      setSaved(true);
      reload();
    } catch (error) {
      if (isConflict(error)) {
        setConflict(true);
        return;
      }
      throw error;
    }
  });
  const mine = useSubmit(async () => {
    await api.put(PATH, body(), await currentEtag(PATH));
    setConflict(false);
    reload();
  });
  const missing = new Set(s.missing);
  const text = (name: TextName, type?: "text") => (
    <Field
      label={lx(name)}
      name={name}
      type={type}
      value={values[name]}
      onInput={set(name)}
      error={save.fields[name] ?? (missing.has(name) ? lx("needsSetting") : undefined)}
    />
  );
  return (
    <form onSubmit={save.submit} class="letters-settings">
      {s.missing.length > 0 ? (
        <p class="alert" role="alert">
          {lx("missing", { list: s.missing.map((n) => lx(n as TextName)).join(", ") })}
        </p>
      ) : (
        <p class="card" role="status">
          {lx("complete")}
        </p>
      )}
      {saved && (
        <p class="card" role="status">
          {lx("settingsSaved")}
        </p>
      )}
      {conflict && (
        <>
          <ConflictNotice busy={mine.busy} onTheirs={reload} onMine={() => mine.submit()} />
          <FormError error={mine.error} />
        </>
      )}
      <fieldset class="card">
        <legend>{lx("settingsTitle")}</legend>
        <div class="letters-cols">
          {text("rt")}
          {text("rw")}
          <Select
            label={lx("villageKind")}
            name="villageKind"
            value={values.villageKind}
            onInput={set("villageKind")}
            options={[
              { value: "kelurahan", label: lx("kel") },
              { value: "desa", label: lx("desa") },
            ]}
          />
          {text("kelurahan")}
          {text("kecamatan")}
          {text("kota")}
          {text("provinsi")}
          {text("address")}
          {text("headName")}
          {text("headTitle")}
        </div>
        {text("numberFormat")}
        <p class="muted">{lx("numberFormatHelp")}</p>
        {s.rwLinked ? (
          <label class="letters-check">
            <input
              type="checkbox"
              name="rwAcknowledgement"
              checked={values.rwAcknowledgement}
              onChange={(e) => setValues({ ...values, rwAcknowledgement: e.currentTarget.checked })}
            />{" "}
            {lx("rwAck")}
          </label>
        ) : (
          <p class="muted">{lx("rwNotLinked")}</p>
        )}
      </fieldset>
      <FormError error={save.error} />
      <Submit busy={save.busy}>{cx("save")}</Submit>
    </form>
  );
}
