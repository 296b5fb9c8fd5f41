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

interface FieldProps {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  type?: "text" | "email" | "password" | "tel" | "datetime-local";
  autoComplete?: string;
  required?: boolean;
  minLength?: number;
  error?: string;
}

/** A labelled input; its error (from the API or the browser) is read out with it. */
export function Field(props: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        // Preact 11 types each input type's attributes apart; these share the ones used here.
        type={(props.type ?? "text") as "text"}
        value={props.value}
        onInput={(e) => props.onInput((e.currentTarget as HTMLInputElement).value)}
        autoComplete={props.autoComplete}
        required={props.required}
        minLength={props.minLength}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={props.error ? errorId : undefined}
      />
      {props.error && (
        <p id={errorId} class="field-error">
          {props.error}
        </p>
      )}
    </div>
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

interface TextAreaProps {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  rows?: number;
  error?: string;
}

/** A labelled multi-line input, with its error read out as for `Field`. */
export function TextArea(props: TextAreaProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 4}
        value={props.value}
        onInput={(e) => props.onInput((e.currentTarget as HTMLTextAreaElement).value)}
        required={props.required}
        minLength={props.minLength}
        maxLength={props.maxLength}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={props.error ? errorId : undefined}
      />
      {props.error && (
        <p id={errorId} class="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

interface SelectProps {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  options: { value: string; label: string }[];
  required?: boolean;
  error?: string;
}

/** A labelled choice from a short closed list. */
export function Select(props: SelectProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        value={props.value}
        onInput={(e) => props.onInput((e.currentTarget as HTMLSelectElement).value)}
        required={props.required}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={props.error ? errorId : undefined}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {props.error && (
        <p id={errorId} class="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}
