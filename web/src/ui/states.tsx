import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { t } from "../i18n";
import { problemText } from "./problem";

export type Resource<T> =
  | { state: "loading" }
  | { state: "error"; error: unknown; retry: () => void }
  | { state: "ready"; data: T; reload: () => void };

/** Loads `load()` when the screen opens (and when `deps` change); every screen shows all three states. */
export function useResource<T>(load: () => Promise<T>, deps: unknown[] = []): Resource<T> {
  const [tick, setTick] = useState(0);
  const again = useCallback(() => setTick((n) => n + 1), []);
  const [result, setResult] = useState<Resource<T>>({ state: "loading" });
  useEffect(() => {
    let live = true;
    setResult({ state: "loading" });
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
