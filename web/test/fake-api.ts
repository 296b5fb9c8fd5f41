import { cleanup } from "@testing-library/preact";
import { afterEach, beforeEach, vi } from "vitest";
import { setLanguage } from "../src/i18n";
import { type SessionUser, signIn } from "../src/session";

/**
 * The API at the fetch boundary for component tests: each test sets `routes` (path → answer, or a function
 * of the request), reads what was sent from `seen`. An unknown path answers the API's 404 problem.
 */
export type Answer = { status: number; body: unknown };
export interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** The JSON text sent, or the FormData of a multipart write. */
  body: string | FormData | null;
}

export const fake: {
  routes: Record<string, Answer | ((sent: Sent) => Answer)>;
  seen: Sent[];
} = { routes: {}, seen: [] };

/** Installs the fake for every test of the file (call at the top level). */
export function useFakeApi(): void {
  beforeEach(async () => {
    fake.seen = [];
    fake.routes = {};
    vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
      const [path = url, qs = ""] = url.split("?");
      const sent: Sent = {
        method: init.method ?? "GET",
        path,
        query: new URLSearchParams(qs),
        headers: new Headers(init.headers),
        body: (init.body as string | FormData | undefined) ?? null,
      };
      fake.seen.push(sent);
      const entry = fake.routes[`${sent.method} ${path}`] ?? fake.routes[path];
      const answer = typeof entry === "function" ? entry(sent) : entry;
      if (!answer) {
        return new Response(JSON.stringify({ code: "route_not_found", title: "Not Found", status: 404 }), {
          status: 404,
          headers: { "Content-Type": "application/problem+json" },
        });
      }
      const type = answer.status >= 400 ? "application/problem+json" : "application/json";
      return answer.status === 204
        ? new Response(null, { status: 204 })
        : new Response(JSON.stringify(answer.body), {
            status: answer.status,
            headers: { "Content-Type": type },
          });
    });
    // happy-dom has no layout, so nothing is ever "near the screen": images the API serves
    // (ui/AuthImage) are read at once, as in a browser without IntersectionObserver.
    vi.stubGlobal("IntersectionObserver", undefined);
    await setLanguage("id");
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}

/** A problem+json answer as the API gives it. */
export const problem = (status: number, code: string, detail: string): Answer => ({
  status,
  body: { type: `https://warga.id/problems/${code}`, title: "x", status, code, detail },
});

export const resident: SessionUser = {
  id: "u1",
  name: "Budi Santoso",
  email: "budi@warga.test",
  roles: [],
  resident: true,
  tenant: { slug: "rt-01", name: "RT 01", type: "RT" },
};

/** Signs `user` in through the fake (routes may be keyed "METHOD /path" or just "/path"). */
export async function signedInAs(user: SessionUser = resident): Promise<void> {
  fake.routes["/api/auth/login"] = { status: 200, body: { accessToken: "a", expiresIn: 900, user } };
  await signIn({ email: user.email ?? "x@warga.test", password: "x" });
}
