import { useId } from "preact/hooks";
import { t } from "../../i18n";
import { Field, Select, TextArea } from "../../ui/forms";
import type { HouseholdMember, Jenis, JenisField } from "./types";

/** What the form holds for a type's fields: text as typed, a list for `members`. */
export type FieldValues = Record<string, string | string[]>;

/** A stored letter's fields back into the form (numbers as text), for a correction. */
export function valuesOf(fields: Record<string, unknown>): FieldValues {
  const out: FieldValues = {};
  for (const [name, value] of Object.entries(fields)) {
    out[name] = Array.isArray(value) ? value.map(String) : String(value ?? "");
  }
  return out;
}

/**
 * The form's values as the API's field schema reads them: numbers as numbers, a local date-time with
 * seconds, and nothing at all for an optional field left empty (the API refuses an empty string).
 */
export function payloadOf(jenis: Jenis, values: FieldValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of jenis.fields) {
    const value = values[field.name];
    if (value === undefined || value.length === 0) {
      continue;
    }
    if (Array.isArray(value)) {
      out[field.name] = value;
    } else if (field.type === "number" || field.type === "money") {
      const digits = value.replace(/[^\d]/g, "");
      out[field.name] = digits === "" ? value : Number(digits);
    } else if (field.type === "datetime") {
      out[field.name] = value.length === 16 ? `${value}:00` : value;
    } else {
      out[field.name] = value.trim();
    }
  }
  return out;
}

/** The type's own fields, each as the API declares it, each with its error from the API beside it. */
export function LetterFields(props: {
  jenis: Jenis;
  values: FieldValues;
  onChange: (values: FieldValues) => void;
  errors: Record<string, string>;
  members: HouseholdMember[];
}) {
  return (
    <>
      {props.jenis.fields.map((field) => (
        <OneField
          key={field.name}
          field={field}
          value={props.values[field.name]}
          set={(v) => props.onChange({ ...props.values, [field.name]: v })}
          error={props.errors[`fields.${field.name}`]}
          members={props.members}
        />
      ))}
    </>
  );
}

function OneField(props: {
  field: JenisField;
  value: string | string[] | undefined;
  set: (value: string | string[]) => void;
  error?: string;
  members: HouseholdMember[];
}) {
  const { field, error, members } = props;
  const text = typeof props.value === "string" ? props.value : "";
  const label = field.required ? field.label : `${field.label} ${t("surat.optional")}`;
  const common = {
    label,
    name: field.name,
    value: text,
    onInput: props.set,
    error,
    required: field.required,
  };
  switch (field.type) {
    case "textarea":
      return <TextArea {...common} maxLength={1000} rows={3} />;
    case "number":
    case "money":
      return <Field {...common} inputMode="numeric" />;
    case "date":
      return <Field {...common} type="date" />;
    case "datetime":
      return <Field {...common} type="datetime-local" />;
    case "select":
      return (
        <Select {...common} options={[{ value: "", label: t("surat.choose") }, ...(field.options ?? [])]} />
      );
    case "member":
      return (
        <Select
          {...common}
          options={[
            { value: "", label: t("surat.choose") },
            ...members.map((m) => ({ value: m.id, label: m.name })),
          ]}
        />
      );
    case "members":
      return (
        <MemberChoice
          label={label}
          members={members}
          chosen={Array.isArray(props.value) ? props.value : []}
          set={props.set}
          error={error}
        />
      );
    default:
      return <Field {...common} />;
  }
}

/** Several household members (who moves with the family): one checkbox each. */
function MemberChoice(props: {
  label: string;
  members: HouseholdMember[];
  chosen: string[];
  set: (value: string[]) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <fieldset class="field checks" aria-describedby={props.error ? `${id}-error` : undefined}>
      <legend>{props.label}</legend>
      {props.members.length === 0 && <p class="muted">{t("surat.noMembers")}</p>}
      {props.members.map((m) => (
        <label key={m.id} class="check">
          <input
            type="checkbox"
            checked={props.chosen.includes(m.id)}
            onChange={(e) =>
              props.set(
                (e.currentTarget as HTMLInputElement).checked
                  ? [...props.chosen, m.id]
                  : props.chosen.filter((x) => x !== m.id),
              )
            }
          />
          {m.name}
        </label>
      ))}
      {props.error && (
        <p id={`${id}-error`} class="field-error">
          {props.error}
        </p>
      )}
    </fieldset>
  );
}
