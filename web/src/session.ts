import { useEffect, useState } from "preact/hooks";
import { ApiError, api, useCredentials } from "./api/client";
import { language } from "./i18n";

/**
 * The session, the app's only global state besides the language (ADR 0041). The access token lives in
 * this module's memory only; the refresh token is an HttpOnly cookie the page never sees, sent by the
 * browser to /api/auth/refresh and /api/auth/logout alone. A reload starts by asking refresh for a new
 * access token: the cookie is the whole of "stay signed in".
 */
export interface TenantRef {
  slug: string;
  name: string;
  type: "RT" | "RW";
}

export interface SessionUser {
  id: string;
  name: string;
  email: string | null;
  roles: string[];
  resident: boolean;
  tenant: TenantRef | null;
}

/** What sign-in, refresh, magic link and switching answer; for the web app without `refreshToken`. */
export interface SignedIn {
  accessToken: string;
  expiresIn: number;
  user: SessionUser;
}

export type SessionState =
  | { status: "starting" }
  | { status: "signedOut" }
  | { status: "signedIn"; user: SessionUser };

let state: SessionState = { status: "starting" };
let accessToken: string | null = null;
const listeners = new Set<(s: SessionState) => void>();

function set(next: SessionState): void {
  state = next;
  for (const listener of listeners) {
    listener(state);
  }
}

export const sessionState = (): SessionState => state;

export function useSession(): SessionState {
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

function accept(result: SignedIn): SessionUser {
  accessToken = result.accessToken;
  set({ status: "signedIn", user: result.user });
  return result.user;
}

/**
 * Rotating the cookie twice with the same value ends the session (the API treats a reused refresh token
 * as stolen), so refreshes are serialised: across tabs by a Web Lock where the browser has them, and
 * within this tab by sharing the one in flight.
 */
let inFlight: Promise<SessionUser | null> | null = null;

async function refreshOnce(): Promise<SessionUser | null> {
  try {
    return accept(await api.post<SignedIn>("/api/auth/refresh", {}));
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 400 || error.status === 403)) {
      accessToken = null;
      set({ status: "signedOut" });
      return null;
    }
    throw error;
  }
}

export function refresh(): Promise<SessionUser | null> {
  if (!inFlight) {
    const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
    const run = locks ? locks.request("warga-refresh", refreshOnce) : refreshOnce();
    inFlight = run.finally(() => {
      inFlight = null;
    });
  }
  return inFlight;
}

useCredentials({
  accessToken: () => accessToken,
  renew: async () => ((await refresh().catch(() => null)) ? accessToken : null),
  language,
});

/** At start-up: signed in again from the cookie, or signed out. A network failure counts as signed out. */
export async function restore(): Promise<void> {
  try {
    await refresh();
  } catch {
    set({ status: "signedOut" });
  }
}

/** Email and password; a resident invited over WhatsApp without an email signs in with the number. */
export async function signIn(input: {
  email?: string;
  whatsapp?: string;
  password: string;
  tenant?: string;
}) {
  return accept(await api.post<SignedIn>("/api/auth/login", input));
}

export async function signInWithMagicLink(token: string) {
  return accept(await api.post<SignedIn>("/api/auth/magic-link/verify", { token }));
}

/** The one-time code an OpenID Connect sign-in returns with (`/auth/callback?code=`). */
export async function signInWithOAuthCode(code: string) {
  return accept(await api.post<SignedIn>("/api/auth/oauth/exchange", { code }));
}

export async function switchCommunity(tenant: string) {
  return accept(await api.post<SignedIn>("/api/auth/switch-tenant", { tenant }));
}

/** Ends the session on the server (the cookie names it) and forgets the access token here. */
export async function signOut(): Promise<void> {
  try {
    await api.post<void>("/api/auth/logout", {});
  } finally {
    accessToken = null;
    set({ status: "signedOut" });
  }
}
