import { useEffect, useState } from "preact/hooks";
import { watchAnswers } from "../api/client";
import { DATA_CACHE, OFFLINE_HEADER } from "./rules";

/**
 * The page's side of the installed app: registering the service worker (web/src/pwa/sw.ts), knowing
 * whether what the screens show came from the network or from the worker's last kept answers (the
 * offline banner in app.tsx), and forgetting those answers when the person signs out.
 */
export interface OfflineState {
  /** No network now, or the screens show kept answers. */
  offline: boolean;
  /** When the oldest kept answer on screen arrived (ISO 8601); null while everything is fresh. */
  since: string | null;
}

const navigatorOnline = () => typeof navigator === "undefined" || navigator.onLine !== false;
let state: OfflineState = { offline: !navigatorOnline(), since: null };
const listeners = new Set<(s: OfflineState) => void>();

function set(next: OfflineState): void {
  state = next;
  for (const listener of listeners) {
    listener(state);
  }
}

export const offlineState = (): OfflineState => state;

/** Every API answer passes here: a kept one marks the screen as offline, a fresh one unmarks it. */
export function noteAnswer(headers: Pick<Headers, "get">): void {
  const kept = headers.get(OFFLINE_HEADER);
  if (kept) {
    set({ offline: true, since: state.since && state.since < kept ? state.since : kept });
  } else if (state.since !== null || state.offline) {
    set({ offline: !navigatorOnline(), since: null });
  }
}

watchAnswers((res) => noteAnswer(res.headers));
if (typeof window !== "undefined") {
  window.addEventListener("online", () => set({ offline: false, since: null }));
  window.addEventListener("offline", () => set({ ...state, offline: true }));
}

export function useOffline(): OfflineState {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    listeners.add(setCurrent);
    setCurrent(state);
    return () => {
      listeners.delete(setCurrent);
    };
  }, []);
  return current;
}

/** Forgets the kept API answers (they are the person's own): at sign-out and when the session ends. */
export async function clearCachedReads(): Promise<void> {
  if (typeof caches !== "undefined") {
    await caches.delete(DATA_CACHE).catch(() => false);
  }
}

/**
 * After the first paint, never before it: the worker's install downloads the shell once more. The app is
 * always served built (npm run dev too), so there is no dev server whose files the worker could pin.
 */
/** How long after the page's load the worker is installed (a first screen's reads are done by then). */
const REGISTER_AFTER_MS = 4000;

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) {
    return;
  }
  const register = () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // No worker (a private window that refuses it): the app works as before, only not offline.
    });
  };
  // Installing the worker (it fetches the shell to keep) is work the first screen does not need: it waits
  // until the page has loaded, its screen's data has arrived, and the browser is idle.
  const later = () =>
    setTimeout(() => {
      if ("requestIdleCallback" in window) {
        requestIdleCallback(register, { timeout: 5000 });
      } else {
        register();
      }
    }, REGISTER_AFTER_MS);
  if (document.readyState === "complete") {
    later();
  } else {
    window.addEventListener("load", later, { once: true });
  }
}
