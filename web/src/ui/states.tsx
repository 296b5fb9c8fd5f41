import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { t } from "../i18n";
import { problemText } from "./problem";

export type Resource<T> =
  | { state: "loading" }
  | { state: "error"; error: unknown; retry: () => void }
  | { state: "ready"; data: T; reload: () => void };

const LOADING = { state: "loading" } as const;

/** Loads `load()` when the screen opens (and when `deps` change); every screen shows all three states. */
export function useResource<T>(load: () => Promise<T>, deps: unknown[] = []): Resource<T> {
  const [tick, setTick] = useState(0);
  const [result, setResult] = useState<Resource<T>>(LOADING);
  // A reload shows its placeholder in the same render as whatever asked for it (an action's notice), not
  // one frame later when the effect runs: the rows it replaces never show beside that notice, still
  // offering to act on what was just answered.
  const again = useCallback(() => {
    setResult(LOADING);
    setTick((n) => n + 1);
  }, []);
  useEffect(() => {
    let live = true;
    setResult(LOADING);
    load().then(
      (data) => live && setResult({ state: "ready", data, reload: again }),
      (error: unknown) => live && setResult({ state: "error", error, retry: again }),
    );
    return () => {
      live = false;
    };
  }, [tick, ...deps]);
  return result;
}

/** A placeholder the size of the content to come, so nothing shifts when it arrives. */
export function Loading({ lines = 2 }: { lines?: number }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="sr-only">{t("common.loading")}</span>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} class="skeleton" aria-hidden="true" />
      ))}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function Failed({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <div class="alert" role="alert">
      <p>{problemText(error)}</p>
      <button type="button" onClick={retry}>
        {t("common.retry")}
      </button>
    </div>
  );
}

/** Renders a resource: the placeholder, the problem with a retry, or `children(data)`. */
export function Show<T>(props: {
  resource: Resource<T>;
  lines?: number;
  children: (data: T) => ComponentChildren;
}) {
  const r = props.resource;
  if (r.state === "loading") {
    return <Loading lines={props.lines} />;
  }
  if (r.state === "error") {
    return <Failed error={r.error} retry={r.retry} />;
  }
  return <>{props.children(r.data)}</>;
}

/** A page of a list as every list route answers it (the cursor is opaque: send it back as it came). */
export interface Page<T> {
  items: T[];
  nextCursor?: string | null;
}

export type Paged<T> =
  | { state: "loading" }
  | { state: "error"; error: unknown; retry: () => void }
  | {
      state: "ready";
      items: T[];
      /** Loads the next page and appends it; absent at the end of the list. */
      more?: () => void;
      loadingMore: boolean;
      moreError: unknown;
      reload: () => void;
    };

/** A list read page by page (`limit` and `cursor`), with "load more" instead of numbered pages. */
export function usePaged<T>(load: (cursor?: string) => Promise<Page<T>>, deps: unknown[] = []): Paged<T> {
  const first = useResource(() => load(), deps);
  const [extra, setExtra] = useState<{ items: T[]; cursor?: string | null; busy: boolean; error: unknown }>({
    items: [],
    busy: false,
    error: null,
  });
  useEffect(() => setExtra({ items: [], busy: false, error: null }), [first]);
  if (first.state !== "ready") {
    return first;
  }
  const cursor = extra.cursor === undefined ? first.data.nextCursor : extra.cursor;
  const more = cursor
    ? () => {
        if (extra.busy) {
          return;
        }
        setExtra((e) => ({ ...e, busy: true, error: null }));
        load(cursor).then(
          (page) =>
            setExtra((e) => ({
              items: [...e.items, ...page.items],
              cursor: page.nextCursor ?? null,
              busy: false,
              error: null,
            })),
          (error: unknown) => setExtra((e) => ({ ...e, busy: false, error })),
        );
      }
    : undefined;
  return {
    state: "ready",
    items: [...first.data.items, ...extra.items],
    more,
    loadingMore: extra.busy,
    moreError: extra.error,
    reload: first.reload,
  };
}

/** Renders a paged list: placeholder, problem with retry, empty text, or the rows and "load more". */
export function ShowPaged<T>(props: {
  paged: Paged<T>;
  empty: ComponentChildren;
  lines?: number;
  children: (items: T[]) => ComponentChildren;
}) {
  const p = props.paged;
  if (p.state === "loading") {
    return <Loading lines={props.lines} />;
  }
  if (p.state === "error") {
    return <Failed error={p.error} retry={p.retry} />;
  }
  if (p.items.length === 0) {
    return <Empty>{props.empty}</Empty>;
  }
  return (
    <>
      {props.children(p.items)}
      {p.moreError ? <Failed error={p.moreError} retry={() => p.more?.()} /> : null}
      {p.more && (
        <button type="button" class="more" onClick={p.more} disabled={p.loadingMore}>
          {p.loadingMore ? t("common.loading") : t("common.more")}
        </button>
      )}
    </>
  );
}
