import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "../src/api/client";
import { restore, sessionState, signInWithMagicLink } from "../src/session";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": status >= 400 ? "application/problem+json" : "application/json" },
  });

const user = {
  id: "u1",
  name: "Budi Santoso",
  email: "budi@warga.test",
  roles: [],
  resident: true,
  tenant: { slug: "rt-01", name: "RT 01", type: "RT" },
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the session at start-up", () => {
  it("keeps a sign-in that succeeded while the start-up refresh was still out, when that refresh is refused", async () => {
    // A magic link's landing: the page starts (restore → refresh with no cookie yet) and the landing
    // signs in with the link; on a slow network the refusal of the first arrives after the second.
    let refuse: () => void = () => undefined;
    vi.stubGlobal("fetch", (url: string) => {
      if (url.startsWith("/api/auth/refresh")) {
        return new Promise<Response>((resolve) => {
          refuse = () => resolve(json(401, { code: "unauthorized", title: "x", status: 401 }));
        });
      }
      if (url.startsWith("/api/auth/magic-link/verify")) {
        return Promise.resolve(json(200, { accessToken: "new", expiresIn: 900, user }));
      }
      return Promise.resolve(json(404, { code: "route_not_found", title: "x", status: 404 }));
    });
    const starting = restore();
    await signInWithMagicLink("t");
    expect(sessionState()).toMatchObject({ status: "signedIn", user: { id: "u1" } });
    refuse();
    await starting;
    expect(sessionState()).toMatchObject({ status: "signedIn", user: { id: "u1" } });
  });
});

/** An unsigned token with these claims: the app only reads them, the API verifies. */
const tokenWith = (claims: Record<string, unknown>) =>
  `h.${btoa(JSON.stringify(claims)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "")}.s`;

describe("a token the API hands back (issue 45)", () => {
  it("is used from the next request on, and the screens follow the duties it names", async () => {
    const fresh = tokenWith({ roles: ["bendahara"], resident: true });
    const sent: (string | null)[] = [];
    vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
      sent.push(new Headers(init.headers).get("Authorization"));
      if (url.startsWith("/api/auth/magic-link/verify")) {
        return Promise.resolve(json(200, { accessToken: "old", expiresIn: 900, user }));
      }
      const answer = json(200, { items: [] });
      answer.headers.set("X-Warga-Access-Token", fresh);
      return Promise.resolve(answer);
    });
    await signInWithMagicLink("t");
    await api.get("/api/iuran/tagihan");
    await api.get("/api/iuran/tagihan");
    expect(sent.slice(1)).toEqual(["Bearer old", `Bearer ${fresh}`]);
    expect(sessionState()).toMatchObject({
      status: "signedIn",
      user: { roles: ["bendahara"], resident: true },
    });
  });
});
