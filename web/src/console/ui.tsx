import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { type Answer, ApiError, api } from "../api/client";
import { problemText } from "../ui/problem";
import { cx } from "./text";

/**
 * What the console's screens share beyond the app's forms and states (ui/forms.tsx, ui/states.tsx):
 * tables that become lists on a phone, the conflict of two officers editing one record, a secret shown
 * once, a confirmation, progress of a long operation, and a bar chart.
 */

export interface Column<T> {
  label: string;
  cell: (row: T) => ComponentChildren;
  /** Right-aligned (amounts, counts). */
  numeric?: boolean;
}

/**
 * A table on a desktop; on a phone each row is a card with each cell under its column's name (CSS:
 * console.css), still a table to a screen reader.
 */
export function DataTable<T>(props: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
}) {
  return (
    <div class="dt-wrap">
      <table class="dt">
        <caption class="sr-only">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c.label} scope="col" class={c.numeric ? "num" : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((c) => (
                <td key={c.label} data-label={c.label} class={c.numeric ? "num" : undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Whether a write was refused because the record changed since it was read (`If-Match`: 412). */
export const isConflict = (error: unknown): boolean => error instanceof ApiError && error.status === 412;

/**
 * Two officers edited the same record: the second is told, keeps what they typed, and chooses. "Theirs"
 * reloads the record (the form takes the latest values); "mine" saves again over the latest version
 * (`overwrite` reads the current ETag and sends the same edit with it).
 */
export function ConflictNotice(props: { onTheirs: () => void; onMine: () => void; busy?: boolean }) {
  return (
    <div class="alert conflict" role="alert">
      <p>
        <strong>{cx("conflictTitle")}</strong> {cx("conflictBody")}
      </p>
      <div class="actions">
        <button type="button" onClick={props.onTheirs} disabled={props.busy}>
          {cx("conflictTheirs")}
        </button>
        <button type="button" class="primary" onClick={props.onMine} disabled={props.busy}>
          {cx("conflictMine")}
        </button>
      </div>
    </div>
  );
}

/** The current ETag of `path`, to save "my version" over someone else's after a conflict. */
export async function currentEtag(path: string): Promise<string | null> {
  return (await api.read<unknown>(path)).etag;
}

/** A read whose ETag an edit needs: the data and its version together. */
export type Versioned<T> = Answer<T>;

/**
 * A secret the API shows once (a gate device's key, a sign-in code): shown with a copy button and a
 * warning that it will not be shown again.
 */
export function OnceSecret(props: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refusal): the value is on screen to copy by hand.
    }
  };
  return (
    <div class="once card" role="status">
      <p>{props.label}</p>
      <code>{props.value}</code>
      <p class="muted">{cx("shownOnce")}</p>
      <button type="button" onClick={copy}>
        {copied ? cx("copied") : cx("copy")}
      </button>
    </div>
  );
}

/**
 * A yes/no question before something that cannot be undone, in the browser's own modal dialog (focus
 * is trapped and restored, Escape cancels). `children` may hold fields (a reason to decline).
 */
export function Confirm(props: {
  open: boolean;
  title: string;
  children?: ComponentChildren;
  confirmLabel?: string;
  danger?: boolean;
  busy?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) {
      return;
    }
    if (props.open && !dialog.open) {
      dialog.showModal?.();
    } else if (!props.open && dialog.open) {
      dialog.close();
    }
  }, [props.open]);
  return (
    <dialog ref={ref} class="confirm" aria-labelledby={titleId} onCancel={props.onCancel}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          props.onConfirm();
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        {props.error ? (
          <p class="alert" role="alert">
            {problemText(props.error)}
          </p>
        ) : null}
        <div class="actions">
          <button type="button" onClick={props.onCancel}>
            {cx("cancel")}
          </button>
          <button type="submit" class={props.danger ? "danger" : "primary"} disabled={props.busy}>
            {props.confirmLabel ?? cx("confirm")}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** A long operation under way (bill generation, an import, an archive): how far, read out as it moves. */
export function Progress(props: { label: string; done?: number; total?: number }) {
  const known = props.total !== undefined && props.total > 0 && props.done !== undefined;
  return (
    <div class="progress" role="status" aria-live="polite">
      <p>
        {props.label}
        {known ? ` (${props.done} / ${props.total})` : "…"}
      </p>
      <progress
        max={known ? props.total : undefined}
        value={known ? props.done : undefined}
        aria-label={props.label}
      />
    </div>
  );
}

/** Horizontal bars with their values written beside them (a chart that reads as a list too). */
export function BarChart(props: { title: string; bars: { label: string; value: number; text?: string }[] }) {
  const max = Math.max(1, ...props.bars.map((b) => b.value));
  const id = useId();
  return (
    <figure class="bars">
      <figcaption id={id}>{props.title}</figcaption>
      <ul aria-labelledby={id}>
        {props.bars.map((b) => (
          <li key={b.label}>
            <span class="bar-label">{b.label}</span>
            <span class="bar" aria-hidden="true">
              <span style={{ width: `${(b.value / max) * 100}%` }} />
            </span>
            <span class="bar-value">{b.text ?? String(b.value)}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
