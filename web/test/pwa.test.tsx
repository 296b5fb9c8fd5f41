import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "../src/api/client";
import { OfflineBanner } from "../src/pwa/OfflineBanner";
import { noteAnswer } from "../src/pwa/offline";
import { PushToggle } from "../src/pwa/PushToggle";
import { webPushToken } from "../src/pwa/push";
import { DATA_CACHE, keepable, OFFLINE_HEADER, pathOfPush, stamped, strategyFor } from "../src/pwa/rules";
import { restore, sessionState, signOut } from "../src/session";
import { fake, problem, resident, signedInAs, useFakeApi } from "./fake-api";

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

describe("the switch for notifications on this device", () => {
  useFakeApi();
  const KEY = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
  const SUB = {
    endpoint: "https://fcm.googleapis.com/fcm/send/abc",
    keys: {
      p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
      auth: "BTBZMqHH6r4Tts7J_aSIgg",
    },
  };
  let current: { toJSON: () => unknown; unsubscribe: () => Promise<boolean> } | null;
  let permission: NotificationPermission;
  let unsubscribed: number;
  beforeEach(async () => {
    current = null;
    permission = "default";
    unsubscribed = 0;
    const made = () => ({
      toJSON: () => ({ ...SUB, expirationTime: null }),
      unsubscribe: async () => {
        unsubscribed += 1;
        current = null;
        return true;
      },
    });
    const registration = {
      pushManager: {
        getSubscription: async () => current,
        subscribe: async (options: { applicationServerKey: Uint8Array }) => {
          expect(options.applicationServerKey).toHaveLength(65);
          current = made();
          return current;
        },
      },
    };
    Object.defineProperty(navigator, "serviceWorker", {
      value: { ready: Promise.resolve(registration) },
      configurable: true,
    });
    vi.stubGlobal("PushManager", class {});
    vi.stubGlobal("Notification", {
      get permission() {
        return permission;
      },
      requestPermission: async () => {
        permission = "granted";
        return permission;
      },
    });
    await signedInAs();
    fake.routes["/api/user/push-tokens/vapid-key"] = { status: 200, body: { publicKey: KEY } };
  });

  it("subscribes with the API's key and registers the subscription; a failed registration keeps its key for the retry", async () => {
    // The notification service is down: the client tries three times, then the person sees why.
    let attempts = 0;
    fake.routes["POST /api/user/push-tokens"] = () =>
      ++attempts <= 3
        ? problem(503, "notification_unavailable", "Layanan notifikasi sedang tidak tersedia.")
        : { status: 200, body: { token: "t", platform: "web", registeredAt: "2026-11-29T00:00:00Z" } };
    render(<PushToggle />);
    const toggle = await screen.findByRole("switch", { name: "Notifikasi di perangkat ini" });
    await waitFor(() => expect((toggle as HTMLInputElement).disabled).toBe(false));
    expect((toggle as HTMLInputElement).checked).toBe(false);

    fireEvent.click(toggle);
    expect((await screen.findByRole("alert", {}, { timeout: 8000 })).textContent).toBe(
      "Layanan notifikasi sedang tidak tersedia.",
    );
    expect((toggle as HTMLInputElement).checked).toBe(false);
    fireEvent.click(toggle);
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    const posts = fake.seen.filter((s) => s.method === "POST" && s.path === "/api/user/push-tokens");
    expect(posts).toHaveLength(4);
    expect(JSON.parse(posts[3]?.body as string)).toEqual({ platform: "web", subscription: SUB });
    expect(new Set(posts.map((p) => p.headers.get("Idempotency-Key"))).size).toBe(1);
  }, 15_000);

  it("switching off unregisters this device's token, then drops the subscription", async () => {
    current = {
      toJSON: () => SUB,
      unsubscribe: async () => {
        unsubscribed += 1;
        return true;
      },
    };
    permission = "granted";
    const token = webPushToken(SUB);
    fake.routes[`DELETE /api/user/push-tokens/${token}`] = { status: 204, body: null };
    render(<PushToggle />);
    const toggle = (await screen.findByRole("switch")) as HTMLInputElement;
    await waitFor(() => expect(toggle.checked).toBe(true));
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.checked).toBe(false));
    expect(fake.seen.some((s) => s.method === "DELETE" && s.path === `/api/user/push-tokens/${token}`)).toBe(
      true,
    );
    expect(unsubscribed).toBe(1);
    // The token is the API's documented one.
    expect(atob(token.replace(/-/g, "+").replace(/_/g, "/"))).toBe(
      `${SUB.endpoint} ${SUB.keys.p256dh} ${SUB.keys.auth}`,
    );
  });

  it("says what to do when notifications are blocked, and is not offered where Web Push is not set up", async () => {
    permission = "denied";
    render(<PushToggle />);
    await screen.findByText(/Notifikasi diblokir di browser ini/);
    expect((screen.getByRole("switch") as HTMLInputElement).disabled).toBe(true);
    cleanup();
    fake.routes["/api/user/push-tokens/vapid-key"] = { status: 200, body: { publicKey: null } };
    const { container } = render(<PushToggle />);
    await waitFor(() => expect(fake.seen.filter((s) => s.path.endsWith("/vapid-key"))).toHaveLength(2));
    await waitFor(() => expect(container.textContent).toBe(""));
  });
});
