import { render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "../src/api/client";
import { OfflineBanner } from "../src/pwa/OfflineBanner";
import { noteAnswer } from "../src/pwa/offline";
import { DATA_CACHE, keepable, OFFLINE_HEADER, pathOfPush, stamped, strategyFor } from "../src/pwa/rules";
import { restore, sessionState, signOut } from "../src/session";
import { fake, resident, signedInAs, useFakeApi } from "./fake-api";

const ORIGIN = "http://localhost:3000";
// wrangler.toml's run_worker_first, as the build writes it into the worker.
const WORKER_FIRST = ["/api/*", "/openapi.json", "/swagger", "/reset-password", "/tamu/*", "/verify/*"];
const decide = (method: string, path: string, mode: RequestMode = "cors", origin = ORIGIN) =>
  strategyFor({ method, url: `${origin}${path}`, mode }, ORIGIN, WORKER_FIRST);

describe("what the service worker keeps, and what it never does", () => {
  it("keeps API reads, network first", () => {
    expect(decide("GET", "/api/iuran/mine")).toBe("read");
    expect(decide("GET", "/api/surat/mine?limit=10")).toBe("read");
  });

  it("never touches writes, sign-in and token routes, or another origin", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(decide(method, "/api/surat")).toBe("pass");
    }
    expect(decide("GET", "/api/auth/oauth/google")).toBe("pass");
    expect(decide("POST", "/api/auth/refresh")).toBe("pass");
    expect(decide("GET", "/api/iuran/mine", "cors", "https://elsewhere.example")).toBe("pass");
  });

  it("answers page loads of the app from the shell, but leaves the Worker's own pages alone", () => {
    expect(decide("GET", "/", "navigate")).toBe("page");
    expect(decide("GET", "/iuran/tagihan/1", "navigate")).toBe("page");
    expect(decide("GET", "/swagger", "navigate")).toBe("pass");
    expect(decide("GET", "/tamu/pass-token", "navigate")).toBe("pass");
    expect(decide("GET", "/reset-password", "navigate")).toBe("pass");
    expect(decide("GET", "/sw.js")).toBe("pass");
  });

  it("serves build and public files cache first", () => {
    expect(decide("GET", "/app/index-abc.js", "cors")).toBe("asset");
    expect(decide("GET", "/icons/icon-192.png", "no-cors")).toBe("asset");
  });

  it("keeps only complete JSON answers the API lets be stored", () => {
    const res = (status: number, headers: Record<string, string>) => ({
      status,
      headers: new Headers(headers),
    });
    expect(keepable(res(200, { "Content-Type": "application/json" }))).toBe(true);
    expect(keepable(res(200, { "Content-Type": "application/pdf" }))).toBe(false);
    expect(keepable(res(304, { "Content-Type": "application/json" }))).toBe(false);
    expect(keepable(res(404, { "Content-Type": "application/problem+json" }))).toBe(false);
    // A URL carrying a secret: the API marks its answer no-store.
    expect(keepable(res(200, { "Content-Type": "application/json", "Cache-Control": "no-store" }))).toBe(
      false,
    );
  });

  it("stamps a kept answer with when it arrived, its body and status intact", async () => {
    const at = new Date("2026-11-29T07:30:00Z");
    const kept = stamped(new Response('{"a":1}', { headers: { "Content-Type": "application/json" } }), at);
    expect(kept.headers.get(OFFLINE_HEADER)).toBe(at.toISOString());
    expect(kept.status).toBe(200);
    expect(await kept.json()).toEqual({ a: 1 });
  });

  it("opens the screen a push is about", () => {
    expect(pathOfPush({ screen: "pengumuman", id: "p1" })).toBe("/pengumuman/p1");
    expect(pathOfPush({ screen: "berita", id: "b1" })).toBe("/berita/b1");
    expect(pathOfPush({ screen: "pengaduan", id: "c1" })).toBe("/aspirasi/c1");
    expect(pathOfPush({ screen: "surat", id: "s1" })).toBe("/surat/s1");
    expect(pathOfPush({ screen: "tamu", id: "g1" })).toBe("/tamu");
    // Unknown kinds, a missing id, or an id that would leave the path: home.
    expect(pathOfPush({ screen: "nope", id: "x" })).toBe("/");
    expect(pathOfPush({ screen: "berita" })).toBe("/");
    expect(pathOfPush({ screen: "berita", id: "../../evil" })).toBe("/");
    expect(pathOfPush({ screen: "constructor", id: "x" })).toBe("/");
    expect(pathOfPush(null)).toBe("/");
  });
});

describe("the offline banner", () => {
  useFakeApi();

  it("says nothing online, says offline with the time of the kept data, and goes when fresh data comes", async () => {
    render(<OfflineBanner />);
    const region = screen.getByRole("status");
    expect(region.textContent).toBe("");
    noteAnswer(new Headers({ [OFFLINE_HEADER]: "2026-11-29T07:30:00.000Z" }));
    await waitFor(() =>
      expect(region.textContent).toBe(
        "Anda sedang offline — data terakhir dilihat 29 November 2026, 14.30 WIB",
      ),
    );
    // An older kept answer on the same screen: the banner names the older time.
    noteAnswer(new Headers({ [OFFLINE_HEADER]: "2026-11-28T07:30:00.000Z" }));
    await waitFor(() => expect(region.textContent).toContain("28 November 2026"));
    // A fresh answer through the client: the mark goes.
    fake.routes["/api/iuran/mine"] = { status: 200, body: {} };
    await api.get("/api/iuran/mine");
    await waitFor(() => expect(region.textContent).toBe(""));
  });

  it("is marked by the client from any answer the worker took from its cache", async () => {
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response("{}", {
          headers: { "Content-Type": "application/json", [OFFLINE_HEADER]: "2026-11-29T01:00:00.000Z" },
        }),
    );
    render(<OfflineBanner />);
    await api.get("/api/pengumuman");
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("08.00 WIB"));
    noteAnswer(new Headers());
  });
});

describe("the session without a network", () => {
  useFakeApi();
  let deleted: string[];
  beforeEach(() => {
    deleted = [];
    vi.stubGlobal("caches", { delete: async (name: string) => deleted.push(name) > 0 });
  });
  afterEach(() => localStorage.clear());

  it("remembers who signed in (never a token or the email) and opens as them when the refresh cannot be asked", async () => {
    await signedInAs();
    const stored = localStorage.getItem("warga.lastUser") ?? "";
    expect(JSON.parse(stored)).toEqual({ ...resident, email: null });
    expect(stored).not.toMatch(/token|eyJ|budi@/i);
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    await restore();
    expect(sessionState()).toEqual({ status: "signedIn", user: { ...resident, email: null } });
  }, 10_000);

  it("is signed out when the cookie is refused, and forgets the person and their kept reads", async () => {
    await signedInAs();
    fake.routes["/api/auth/refresh"] = {
      status: 401,
      body: { code: "unauthorized", title: "x", status: 401 },
    };
    await restore();
    expect(sessionState()).toEqual({ status: "signedOut" });
    expect(localStorage.getItem("warga.lastUser")).toBeNull();
    await waitFor(() => expect(deleted).toContain(DATA_CACHE));
  });

  it("signing out forgets the person and the kept reads", async () => {
    await signedInAs();
    fake.routes["/api/auth/logout"] = { status: 204, body: null };
    await signOut();
    expect(localStorage.getItem("warga.lastUser")).toBeNull();
    expect(deleted).toEqual([DATA_CACHE]);
  });

  it("without anyone remembered, a network failure is signed out", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    await restore();
    expect(sessionState()).toEqual({ status: "signedOut" });
  }, 10_000);
});
