import { useEffect, useState } from "preact/hooks";
import { id, type MessageKey, type Messages } from "./id";

/**
 * One catalogue per language (id.ts, en.ts), Indonesian first. English is loaded only when chosen, so
 * the first screen carries one catalogue. The choice is kept in localStorage (it is not a secret).
 */
export type Language = "id" | "en";

const STORAGE_KEY = "warga.lang";
let current: Language = "id";
let messages: Messages = id;
const listeners = new Set<() => void>();

export const language = (): Language => current;

export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const text = messages[key] ?? id[key];
  return params ? text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`)) : text;
}

export async function setLanguage(next: Language): Promise<void> {
  messages = next === "en" ? (await import("./en")).en : id;
  current = next;
  document.documentElement.lang = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Storage refused (private mode): the choice lasts for this page.
  }
  for (const listener of listeners) {
    listener();
  }
}

/** The stored choice, applied before the first render. */
export async function initLanguage(): Promise<void> {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    // As above.
  }
  if (stored === "en") {
    await setLanguage("en");
  }
}

/** Re-renders the caller when the language changes. */
export function useLanguage(): Language {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((n) => n + 1);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return current;
}

export type { MessageKey };
