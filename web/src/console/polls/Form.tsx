import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type Answer, api } from "../../api/client";
import { useLanguage } from "../../i18n";
import type { Poll } from "../../screens/musyawarah/types";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { ConflictNotice, currentEtag, isConflict } from "../ui";
import { px } from "./text";

const HOUR = 3_600_000;
const JAKARTA = 7 * HOUR;

/** An instant as a `datetime-local` value on the Jakarta clock (WIB), and back. */
export const toLocal = (iso: string): string =>
  new Date(Date.parse(iso) + JAKARTA).toISOString().slice(0, 16);
export const fromLocal = (local: string): string => (local ? `${local}:00+07:00` : "");

interface Values {
  title: string;
  description: string;
  options: string[];
  startsAt: string;
  endsAt: string;
  quorumKind: "" | "percent" | "count";
  quorumValue: string;
  anonymous: boolean;
  multipleChoice: boolean;
  maxChoices: string;
  voterScope: "warga" | "kk";
  resultsVisibility: "always" | "after_close";
}

function blank(): Values {
  const hour = Math.ceil(Date.now() / HOUR) * HOUR;
  return {
    title: "",
    description: "",
    options: ["", ""],
    startsAt: toLocal(new Date(hour).toISOString()),
    endsAt: toLocal(new Date(hour + 7 * 24 * HOUR).toISOString()),
    quorumKind: "",
    quorumValue: "",
    anonymous: true,
    multipleChoice: false,
    maxChoices: "2",
    voterScope: "warga",
    resultsVisibility: "always",
  };
}

const valuesOf = (p: Poll): Values => ({
  title: p.title,
  description: p.description ?? "",
  options: p.options.map((o) => o.label),
  startsAt: toLocal(p.startsAt),
  endsAt: toLocal(p.endsAt),
  quorumKind: p.quorum?.kind ?? "",
  quorumValue: p.quorum ? String(p.quorum.value) : "",
  anonymous: p.anonymous,
  multipleChoice: p.multipleChoice,
  maxChoices: String(p.maxChoices),
  voterScope: p.voterScope,
  resultsVisibility: p.resultsVisibility,
});

function bodyOf(v: Values) {
  return {
    title: v.title.trim(),
    description: v.description.trim() || null,
    options: v.options.map((o) => o.trim()).filter(Boolean),
    startsAt: fromLocal(v.startsAt),
    endsAt: fromLocal(v.endsAt),
    quorum: v.quorumKind ? { kind: v.quorumKind, value: Number(v.quorumValue) } : null,
    anonymous: v.anonymous,
    multipleChoice: v.multipleChoice,
    ...(v.multipleChoice ? { maxChoices: Number(v.maxChoices) } : {}),
    voterScope: v.voterScope,
    resultsVisibility: v.resultsVisibility,
  };
}

/** `/pengurus/musyawarah/baru`: a new poll, saved as a draft to check before publishing. */
export function NewPoll() {
  useLanguage();
  const { route } = useLocation();
  const [values, setValues] = useState<Values>(blank);
  const form = useSubmit(async (key) => {
    const poll = await api.post<Poll>(
      "/api/musyawarah",
      { ...bodyOf(values), status: "draft" },
      { idempotencyKey: key },
    );
    route(`/pengurus/musyawarah/${poll.id}`);
  });
  return (
    <section aria-labelledby="poll-form-title" class="polls">
      <p>
        <a href="/pengurus/musyawarah">{px("back")}</a>
      </p>
      <h1 id="poll-form-title">{px("createTitle")}</h1>
      <PollFields values={values} set={setValues} form={form} submitLabel={px("saveDraft")} />
    </section>
  );
}

/** `/pengurus/musyawarah/:id/ubah`: a draft's edit, with the version it was read at (If-Match). */
export function EditPoll({ params }: { params: { id: string } }) {
  useLanguage();
  const poll = useResource(() => api.read<Poll>(`/api/musyawarah/${params.id}`), [params.id]);
  return (
    <section aria-labelledby="poll-form-title" class="polls">
      <p>
        <a href={`/pengurus/musyawarah/${params.id}`}>{px("backPoll")}</a>
      </p>
      <h1 id="poll-form-title">{px("editTitle")}</h1>
      <Show resource={poll} lines={8}>
        {(answer) => (
          <EditForm
            key={answer.etag ?? ""}
            answer={answer}
            reload={poll.state === "ready" ? poll.reload : () => undefined}
          />
        )}
      </Show>
    </section>
  );
}

function EditForm({ answer, reload }: { answer: Answer<Poll>; reload: () => void }) {
  const { route } = useLocation();
  const path = `/api/musyawarah/${answer.data.id}`;
  const [values, setValues] = useState<Values>(valuesOf(answer.data));
  const [conflict, setConflict] = useState(false);
  const done = () => route(`/pengurus/musyawarah/${answer.data.id}`);
  const form = useSubmit(async () => {
    try {
      await api.put(path, bodyOf(values), answer.etag);
      done();
    } catch (error) {
      if (isConflict(error)) {
        setConflict(true);
        return;
      }
      throw error;
    }
  });
  const mine = useSubmit(async () => {
    await api.put(path, bodyOf(values), await currentEtag(path));
    done();
  });
  return (
    <>
      {conflict && (
        <>
          <ConflictNotice busy={mine.busy} onTheirs={reload} onMine={() => mine.submit()} />
          <FormError error={mine.error} />
        </>
      )}
      <PollFields values={values} set={setValues} form={form} submitLabel={px("save")} />
    </>
  );
}

function Check(props: { label: string; name: string; checked: boolean; set: (v: boolean) => void }) {
  return (
    <label class="polls-check">
      <input
        type="checkbox"
        name={props.name}
        checked={props.checked}
        onChange={(e) => props.set(e.currentTarget.checked)}
      />{" "}
      {props.label}
    </label>
  );
}

function PollFields(props: {
  values: Values;
  set: (v: Values) => void;
  form: ReturnType<typeof useSubmit<unknown>>;
  submitLabel: string;
}) {
  const { values: v, form } = props;
  const set =
    <K extends keyof Values>(k: K) =>
    (value: Values[K]) =>
      props.set({ ...v, [k]: value });
  const setOption = (i: number) => (label: string) =>
    props.set({ ...v, options: v.options.map((o, j) => (j === i ? label : o)) });
  return (
    <form onSubmit={form.submit} class="polls-form">
      <div class="card">
        <Field
          label={px("pollTitle")}
          name="title"
          value={v.title}
          onInput={set("title")}
          required
          minLength={3}
          error={form.fields.title}
        />
        <TextArea
          label={px("description")}
          name="description"
          value={v.description}
          onInput={set("description")}
          maxLength={5000}
          error={form.fields.description}
        />
      </div>
      <fieldset class="card">
        <legend>{px("options")}</legend>
        {v.options.map((o, i) => (
          <div class="polls-option" key={i}>
            <Field
              label={px("option", { n: i + 1 })}
              name={`option-${i}`}
              value={o}
              onInput={setOption(i)}
              required
              error={form.fields[`options.${i}`]}
            />
            {v.options.length > 2 && (
              <button
                type="button"
                aria-label={px("removeOption", { n: i + 1 })}
                onClick={() => props.set({ ...v, options: v.options.filter((_, j) => j !== i) })}
              >
                ×
              </button>
            )}
          </div>
        ))}
        {form.fields.options && <p class="field-error">{form.fields.options}</p>}
        {v.options.length < 20 && (
          <button type="button" onClick={() => props.set({ ...v, options: [...v.options, ""] })}>
            {px("addOption")}
          </button>
        )}
      </fieldset>
      <fieldset class="card">
        <legend>{px("settings")}</legend>
        <div class="polls-cols">
          <Field
            label={px("startsAt")}
            name="startsAt"
            type="datetime-local"
            value={v.startsAt}
            onInput={set("startsAt")}
            required
            error={form.fields.startsAt}
          />
          <Field
            label={px("endsAt")}
            name="endsAt"
            type="datetime-local"
            value={v.endsAt}
            onInput={set("endsAt")}
            required
            error={form.fields.endsAt}
          />
          <Select
            label={px("quorum")}
            name="quorumKind"
            value={v.quorumKind}
            onInput={(k) => set("quorumKind")(k as Values["quorumKind"])}
            options={[
              { value: "", label: px("quorumNone") },
              { value: "percent", label: px("quorumPercent") },
              { value: "count", label: px("quorumCount") },
            ]}
          />
          {v.quorumKind && (
            <Field
              label={px("quorumValue")}
              name="quorumValue"
              type="number"
              inputMode="numeric"
              value={v.quorumValue}
              onInput={set("quorumValue")}
              required
              error={form.fields["quorum.value"]}
            />
          )}
          <Select
            label={px("voterScope")}
            name="voterScope"
            value={v.voterScope}
            onInput={(s) => set("voterScope")(s as Values["voterScope"])}
            options={[
              { value: "warga", label: px("scopeWarga") },
              { value: "kk", label: px("scopeKk") },
            ]}
          />
          <Select
            label={px("resultsVisibility")}
            name="resultsVisibility"
            value={v.resultsVisibility}
            onInput={(s) => set("resultsVisibility")(s as Values["resultsVisibility"])}
            options={[
              { value: "always", label: px("always") },
              { value: "after_close", label: px("after_close") },
            ]}
          />
        </div>
        <Check label={px("anonymous")} name="anonymous" checked={v.anonymous} set={set("anonymous")} />
        <Check
          label={px("multipleChoice")}
          name="multipleChoice"
          checked={v.multipleChoice}
          set={set("multipleChoice")}
        />
        {v.multipleChoice && (
          <Field
            label={px("maxChoices")}
            name="maxChoices"
            type="number"
            inputMode="numeric"
            value={v.maxChoices}
            onInput={set("maxChoices")}
            required
            error={form.fields.maxChoices}
          />
        )}
      </fieldset>
      <FormError error={form.error} />
      <Submit busy={form.busy}>{props.submitLabel}</Submit>
    </form>
  );
}
