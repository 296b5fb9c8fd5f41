/**
 * The one API client every screen uses (docs/adr/0041-web-app.md). It knows the session (the access
 * token, in memory only), the language, and the API's contracts, so no screen has to remember them:
 * - a write is sent with an `Idempotency-Key`; a retry of it (here after a network failure or a 503, or
 *   by the person pressing the button again: `useSubmit` keeps the key) sends the same key;
 * - an edit sends `If-Match` with the ETag of what the screen showed;
 * - an answer that is not 2xx becomes an `ApiError` holding the RFC 9457 problem (code, detail, field
 *   errors), in the person's language (`Accept-Language`);
 * - a 401 on a token that has just expired is answered by one refresh and one retry.
 */
export interface FieldError {
  field: string;
  message: string;
}

export interface Problem {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  errors?: FieldError[];
}

export class ApiError extends Error {
  constructor(
    readonly problem: Problem,
    readonly status: number,
  ) {
    super(problem.detail ?? problem.title);
  }
}

/** No answer at all (offline, DNS, connection reset): the request may or may not have arrived. */
export class NetworkError extends Error {}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RequestOptions {
  /** JSON, or a FormData for a multipart upload (a photo, an attachment). */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** The ETag of the version being edited: sent as If-Match, so a stale edit answers 412. */
  ifMatch?: string | null;
  /** Kept by the caller across its own retries of the same write; a new one is made otherwise. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Read the answer as a Blob (a PDF, a spreadsheet, a zip) instead of JSON or text. */
  binary?: boolean;
}

export interface Answer<T> {
  data: T;
  status: number;
  etag: string | null;
}

/** What the client needs from the session; session.ts provides it (set once at start-up). */
export interface Credentials {
  accessToken(): string | null;
  /** A fresh access token after a 401, or null when the session is over. */
  renew(): Promise<string | null>;
  /**
   * A token the API handed back with an answer (`X-Warga-Access-Token`): the caller's duties or house
   * changed since theirs was signed, so it restates them (ADR 0043). Used from then on.
   */
  adopt?(token: string): void;
  language(): string;
}

let credentials: Credentials = {
  accessToken: () => null,
  renew: async () => null,
  language: () => "id",
};

export function useCredentials(c: Credentials): void {
  credentials = c;
}

/** Marks the first-party web app: the API answers its refresh token as an HttpOnly cookie (ADR 0041). */
export const CLIENT_HEADER = "X-Warga-Client";

/** Where the API puts an access token restating the caller's current duties and house (ADR 0043). */
export const FRESH_TOKEN_HEADER = "X-Warga-Access-Token";

export const newIdempotencyKey = (): string => crypto.randomUUID();

/** Observers of every answer the API gives (the offline banner reads the service worker's mark). */
const answerWatchers = new Set<(res: Response) => void>();
export function watchAnswers(watcher: (res: Response) => void): void {
  answerWatchers.add(watcher);
}

const RETRIES = 2;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function urlOf(path: string, query?: RequestOptions["query"]): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) {
      params.set(key, String(value));
    }
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function problemOf(res: Response): Promise<Problem> {
  const type = res.headers.get("Content-Type") ?? "";
  if (type.includes("json")) {
    try {
      const body = (await res.json()) as Partial<Problem>;
      if (typeof body.code === "string") {
        return { title: body.title ?? res.statusText, status: res.status, ...body } as Problem;
      }
    } catch {
      // Not JSON after all: described below.
    }
  }
  return { title: res.statusText || "Error", status: res.status, code: `http_${res.status}` };
}

export async function request<T>(
  method: Method,
  path: string,
  opts: RequestOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {
    Accept: opts.binary ? "*/*" : "application/json",
    "Accept-Language": credentials.language(),
    [CLIENT_HEADER]: "web",
  };
  const multipart = typeof FormData !== "undefined" && opts.body instanceof FormData;
  if (opts.body !== undefined && !multipart) {
    headers["Content-Type"] = "application/json";
  }
  if (method === "POST") {
    headers["Idempotency-Key"] = opts.idempotencyKey ?? newIdempotencyKey();
  }
  if (opts.ifMatch) {
    headers["If-Match"] = opts.ifMatch;
  }
  const url = urlOf(path, opts.query);
  let renewed = false;
  for (let attempt = 0; ; attempt++) {
    const token = credentials.accessToken();
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: token ? { ...headers, Authorization: `Bearer ${token}` } : headers,
        body:
          opts.body === undefined
            ? undefined
            : multipart
              ? (opts.body as FormData)
              : JSON.stringify(opts.body),
        credentials: "same-origin",
        signal: opts.signal,
      });
    } catch (error) {
      if (opts.signal?.aborted) {
        throw error;
      }
      // The same key again: if the first attempt did arrive, the API answers its stored result.
      if (attempt < RETRIES && method !== "GET") {
        await wait(300 * 2 ** attempt);
        continue;
      }
      throw new NetworkError(error instanceof Error ? error.message : String(error));
    }
    for (const watcher of answerWatchers) {
      watcher(res);
    }
    const fresh = res.headers.get(FRESH_TOKEN_HEADER);
    if (fresh && token) {
      credentials.adopt?.(fresh);
    }
    // Not for the sign-in routes themselves: a refusal of the refresh would wait on its own renewal.
    if (res.status === 401 && token && !renewed && !path.startsWith("/api/auth/")) {
      renewed = true;
      if (await credentials.renew()) {
        continue;
      }
    }
    if (res.status === 503 && attempt < RETRIES) {
      const after = Number(res.headers.get("Retry-After") ?? "1");
      await wait(Math.min(Number.isFinite(after) ? after : 1, 5) * 1000);
      continue;
    }
    if (!res.ok) {
      throw new ApiError(await problemOf(res), res.status);
    }
    const etag = res.headers.get("ETag");
    if (res.status === 204) {
      return { data: undefined as T, status: res.status, etag };
    }
    const type = res.headers.get("Content-Type") ?? "";
    const data = (
      opts.binary ? await res.blob() : type.includes("json") ? await res.json() : await res.text()
    ) as T;
    return { data, status: res.status, etag };
  }
}

export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>("GET", path, opts).then((a) => a.data),
  read: <T>(path: string, opts?: RequestOptions) => request<T>("GET", path, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
    request<T>("POST", path, { ...opts, body }).then((a) => a.data),
  /** An edit of something read with `read`: pass its ETag. */
  put: <T>(path: string, body: unknown, ifMatch: string | null, opts?: RequestOptions) =>
    request<T>("PUT", path, { ...opts, body, ifMatch }),
  patch: <T>(path: string, body: unknown, ifMatch: string | null, opts?: RequestOptions) =>
    request<T>("PATCH", path, { ...opts, body, ifMatch }),
  del: (path: string, ifMatch?: string | null) => request<void>("DELETE", path, { ifMatch }),
  /** A multipart write: `form` as the browser builds it (files as Blobs); the key as for `post`. */
  upload: <T>(path: string, form: FormData, opts?: RequestOptions) =>
    request<T>("POST", path, { ...opts, body: form }).then((a) => a.data),
  /** A binary answer (PDF, xlsx, zip) as a Blob; the bearer token goes with it as with any read. */
  blob: (path: string, opts?: RequestOptions) =>
    request<Blob>("GET", path, { ...opts, binary: true }).then((a) => a.data),
};

/** Saves a Blob the API answered under `filename` (the browser's own download). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
