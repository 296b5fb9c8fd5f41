import { useEffect, useState } from "preact/hooks";
import { ApiError, api, NetworkError, useCredentials } from "./api/client";
import { language } from "./i18n";
import { clearCachedReads } from "./pwa/offline";

/**
 * The session, the app's only global state besides the language (ADR 0041). The access token lives in
 * this module's memory only; the refresh token is an HttpOnly cookie the page never sees, sent by the
 * browser to /api/auth/refresh and /api/auth/logout alone. A reload starts by asking refresh for a new
 * access token: the cookie is the whole of "stay signed in".
 *
 * Without a network that question cannot be asked. The installed app then opens as the last person who
 * used it here (LAST_USER: who they are, never a token), reading the screens the service worker kept,
 * and asks again as soon as the network is back.
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

/** Who was signed in here last: name, community and duties to open the app offline; no token, no email. */
const LAST_USER = "warga.lastUser";

function remember(user: SessionUser | null): void {
  try {
    if (user) {
      localStorage.setItem(LAST_USER, JSON.stringify({ ...user, email: null }));
    } else {
      localStorage.removeItem(LAST_USER);
    }
  } catch {
    // Storage refused (private mode): the app just cannot open offline.
  }
}

function lastUser(): SessionUser | null {
  try {
    const stored = localStorage.getItem(LAST_USER);
    return stored ? (JSON.parse(stored) as SessionUser) : null;
  } catch {
    return null;
  }
}

/**
 * Counts the sessions this page has accepted. A refresh refused after a sign-in that started later had
 * succeeded (the page's start-up refresh racing a magic link's landing, on a slow network) must not end
 * that newer session: what it refused was the old cookie.
 */
let accepted = 0;

function accept(result: SignedIn): SessionUser {
  accepted += 1;
  accessToken = result.accessToken;
  remember(result.user);
  set({ status: "signedIn", user: result.user });
  return result.user;
}

/** The session is over: no token here, and nothing kept of what this person read. */
function ended(): Promise<void> {
  accessToken = null;
  remember(null);
  set({ status: "signedOut" });
  return clearCachedReads();
}

/**
 * Rotating the cookie twice with the same value ends the session (the API treats a reused refresh token
 * as stolen), so refreshes are serialised: across tabs by a Web Lock where the browser has them, and
 * within this tab by sharing the one in flight.
 */
let inFlight: Promise<SessionUser | null> | null = null;

async function refreshOnce(): Promise<SessionUser | null> {
  const before = accepted;
  try {
    return accept(await api.post<SignedIn>("/api/auth/refresh", {}));
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 400 || error.status === 403)) {
      if (accepted !== before && state.status === "signedIn") {
        return state.user;
      }
      void ended();
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

/** The claims of a token the API signed (read, not verified: the API verifies what it is sent). */
function claimsOf(token: string): { roles?: unknown; resident?: unknown } {
  try {
    const payload = token.split(".")[1] ?? "";
    return JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    return {};
  }
}

/**
 * A token the API handed back because the person's duties or house changed (a duty given, a house
 * granted, their own edit): used from now on, and the screens follow the duties it names.
 */
function adopt(token: string): void {
  if (state.status !== "signedIn" || accessToken === null) {
    return;
  }
  accessToken = token;
  const { roles, resident } = claimsOf(token);
  if (Array.isArray(roles) && typeof resident === "boolean") {
    const user = { ...state.user, roles: roles.map(String), resident };
    remember(user);
    set({ status: "signedIn", user });
  }
}

useCredentials({
  accessToken: () => accessToken,
  renew: async () => ((await refresh().catch(() => null)) ? accessToken : null),
  adopt,
  language,
});

/**
 * At start-up: signed in again from the cookie, or signed out. Without a network, the last person signed
 * in here sees what the app kept (read-only: no token, so nothing can be written), until the network is
 * back and the cookie is asked again.
 */
export async function restore(): Promise<void> {
  const last = lastUser();
  if (last && typeof navigator !== "undefined" && navigator.onLine === false) {
    openOffline(last);
    return;
  }
  const before = accepted;
  try {
    await refresh();
  } catch (error) {
    if (accepted !== before) {
      return;
    }
    if (error instanceof NetworkError && last) {
      openOffline(last);
      return;
    }
    set({ status: "signedOut" });
  }
}

function openOffline(user: SessionUser): void {
  set({ status: "signedIn", user });
  window.addEventListener("online", () => void refresh().catch(() => undefined), { once: true });
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

/** A six-digit code WhatsApp brought to a verified number (issue 45). */
export async function signInWithWhatsappCode(input: { whatsapp: string; code: string; tenant?: string }) {
  return accept(await api.post<SignedIn>("/api/auth/otp/verify", input));
}

/** The one-time code an officer handed over, typed or from its QR (issue 45). */
export async function signInWithCode(code: string) {
  return accept(await api.post<SignedIn>("/api/auth/code/redeem", { code }));
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
    await ended();
  }
}
