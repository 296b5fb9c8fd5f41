/**
 * What the service worker (sw.ts) does with each request, as pure functions the tests call directly. The
 * page's copy of the cache names and the offline header lives here too, so page and worker agree.
 *
 * Privacy: the API's answers are the person's own. Only reads (GET) are kept, never anything under
 * /api/auth/ (tokens, links), never an answer the API marks `no-store` (a URL that carries a secret), and
 * the kept reads are dropped on sign-out and on any 401 (sw.ts, offline.ts).
 */
export const SHELL_CACHE_PREFIX = "warga-shell-";
/** The last answer of each API read the app made, by URL. */
export const DATA_CACHE = "warga-data";
/** Set by the worker on an answer it took from DATA_CACHE: when that answer arrived (ISO 8601). */
export const OFFLINE_HEADER = "X-Warga-Offline";
/** The key of the app shell (index.html) in the shell cache: every page of the app opens from it. */
export const SHELL_KEY = "/";

export type Strategy =
  /** Not touched: the browser fetches as if there were no worker. */
  | "pass"
  /** A page load of the app: the network, or the cached shell without one. */
  | "page"
  /** A hashed build file or a public file: the cache first (they never change under one name). */
  | "asset"
  /** An API read: the network first, its answer kept; the kept answer, marked, without a network. */
  | "read";

export interface RequestFacts {
  method: string;
  url: string;
  mode: RequestMode;
}

/**
 * @param origin the app's origin (other origins are never touched)
 * @param workerFirst wrangler.toml's `run_worker_first` patterns: pages the Worker answers itself (the
 *   guest pass, Swagger, the reset-password page), never replaced by the app's shell
 */
export function strategyFor(req: RequestFacts, origin: string, workerFirst: readonly string[]): Strategy {
  const url = new URL(req.url);
  if (url.origin !== origin || req.method !== "GET") {
    return "pass";
  }
  const path = url.pathname;
  if (path.startsWith("/api/")) {
    return path.startsWith("/api/auth/") ? "pass" : "read";
  }
  if (workerFirst.some((pattern) => matches(pattern, path)) || path === "/sw.js") {
    return "pass";
  }
  if (req.mode === "navigate") {
    return "page";
  }
  return "asset";
}

/** A `run_worker_first` pattern: an exact path, or a prefix ending in `/*`. */
function matches(pattern: string, path: string): boolean {
  return pattern.endsWith("/*") ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
}

/** Whether an API read's answer may be kept: a complete JSON answer the API allows to be stored. */
export function keepable(res: Pick<Response, "status" | "headers">): boolean {
  const type = res.headers.get("Content-Type") ?? "";
  const control = res.headers.get("Cache-Control") ?? "";
  return res.status === 200 && /json/.test(type) && !/no-store/.test(control);
}

/** The answer kept for offline use, stamped with when it arrived. */
export function stamped(res: Response, at: Date): Response {
  const headers = new Headers(res.headers);
  headers.set(OFFLINE_HEADER, at.toISOString());
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/**
 * Where tapping a push notification leads: the notify templates' `data.screen` and `data.id` (the same
 * data the mobile apps route on), as a path of this app. One place for every kind.
 */
const SCREENS: Record<string, (id: string) => string> = {
  pengumuman: (id) => `/pengumuman/${id}`,
  berita: (id) => `/berita/${id}`,
  agenda: (id) => `/agenda/${id}`,
  pengaduan: (id) => `/aspirasi/${id}`,
  aspirasi: (id) => `/aspirasi/${id}`,
  surat: (id) => `/surat/${id}`,
  tamu: () => "/tamu",
  pasar: (id) => `/pasar/${id}`,
  musyawarah: (id) => `/musyawarah/${id}`,
  iuran: () => "/iuran",
};

export function pathOfPush(data: { screen?: unknown; id?: unknown } | null | undefined): string {
  const screen = typeof data?.screen === "string" ? data.screen : "";
  const id = typeof data?.id === "string" && /^[\w-]{1,128}$/.test(data.id) ? data.id : "";
  const to: ((id: string) => string) | undefined = Object.hasOwn(SCREENS, screen)
    ? SCREENS[screen]
    : undefined;
  // A kind with an id, or a list screen (the id is not needed); anything else opens home.
  return to && (id || screen === "tamu" || screen === "iuran") ? to(id) : "/";
}
