import type { ComponentChildren } from "preact";
import { useId, useRef, useState } from "preact/hooks";
import { newIdempotencyKey } from "../api/client";
import { t } from "../i18n";
import { fieldErrors, problemText } from "./problem";

/**
 * The one form pattern (ADR 0041): fields are controlled state that a failure never clears; a write
 * keeps its Idempotency-Key until it succeeds, so pressing the button again after a failure is a retry
 * of the same write, not a second one; the problem is shown above the button and each field error
 * beside its field.
 */
export function useSubmit<T>(action: (idempotencyKey: string) => Promise<T>) {
  const key = useRef(newIdempotencyKey());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event?: Event): Promise<T | undefined> => {
    event?.preventDefault();
    if (busy) {
      return undefined;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await action(key.current);
      key.current = newIdempotencyKey();
      return result;
    } catch (caught) {
      setError(caught);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { submit, busy, error, fields: fieldErrors(error) };
}

/** What every labelled control shares: its label, its value as text, and its error. */
interface ControlProps {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  required?: boolean;
  error?: string;
}

/**
 * The frame of a labelled control: the label tied to it, and its error (from the API or the browser)
 * beside it and read out with it. `control` gets the id and the ARIA attributes to put on the element.
 */
function Labelled(props: {
  label: string;
  error?: string;
  control: (aria: { id: string; "aria-invalid"?: "true"; "aria-describedby"?: string }) => ComponentChildren;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.control({
        id,
        "aria-invalid": props.error ? "true" : undefined,
        "aria-describedby": props.error ? errorId : undefined,
      })}
      {props.error && (
        <p id={errorId} class="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

interface FieldProps extends ControlProps {
  type?: "text" | "email" | "password" | "tel" | "date" | "time" | "datetime-local" | "number";
  /** The phone's keyboard: `numeric` for amounts and counts typed as text. */
  inputMode?: "text" | "numeric" | "tel" | "email";
  autoComplete?: string;
  minLength?: number;
}

/** A labelled input. */
export function Field(props: FieldProps) {
  return (
    <Labelled
      label={props.label}
      error={props.error}
      control={(aria) => (
        <input
          {...aria}
          name={props.name}
          // Preact 11 types each input type's attributes apart; those used here share the same ones.
          type={(props.type ?? "text") as "text"}
          inputMode={props.inputMode}
          value={props.value}
          onInput={(e) => props.onInput((e.currentTarget as HTMLInputElement).value)}
          autoComplete={props.autoComplete}
          required={props.required}
          minLength={props.minLength}
        />
      )}
    />
  );
}

export function FormError({ error }: { error: unknown }) {
  return error ? (
    <p class="alert" role="alert">
      {problemText(error)}
    </p>
  ) : null;
}

export function Submit({ busy, children }: { busy: boolean; children: ComponentChildren }) {
  return (
    <button type="submit" class="primary" disabled={busy} aria-busy={busy ? "true" : undefined}>
      {busy ? t("common.sending") : children}
    </button>
  );
}

interface TextAreaProps extends ControlProps {
  minLength?: number;
  maxLength?: number;
  rows?: number;
}

/** A labelled multi-line input. */
export function TextArea(props: TextAreaProps) {
  return (
    <Labelled
      label={props.label}
      error={props.error}
      control={(aria) => (
        <textarea
          {...aria}
          name={props.name}
          rows={props.rows ?? 4}
          value={props.value}
          onInput={(e) => props.onInput((e.currentTarget as HTMLTextAreaElement).value)}
          required={props.required}
          minLength={props.minLength}
          maxLength={props.maxLength}
        />
      )}
    />
  );
}

interface SelectProps extends ControlProps {
  options: { value: string; label: string }[];
}

/** A labelled choice from a short closed list. */
export function Select(props: SelectProps) {
  return (
    <Labelled
      label={props.label}
      error={props.error}
      control={(aria) => (
        <select
          {...aria}
          name={props.name}
          value={props.value}
          onInput={(e) => props.onInput((e.currentTarget as HTMLSelectElement).value)}
          required={props.required}
        >
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}
