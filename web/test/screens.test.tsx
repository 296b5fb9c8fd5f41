import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { LocationProvider } from "preact-iso";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../src/i18n";
import { en } from "../src/i18n/en";
import { id } from "../src/i18n/id";
import { SignIn } from "../src/screens/auth/SignIn";
import { Home } from "../src/screens/home/Home";
import { signIn } from "../src/session";

type Answer = { status: number; body: unknown };
let routes: Record<string, Answer | (() => Answer)>;
let seen: { path: string; headers: Headers; body: string | null }[];

beforeEach(async () => {
  seen = [];
  routes = {};
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const path = url.split("?")[0] ?? url;
    seen.push({ path, headers: new Headers(init.headers), body: (init.body as string) ?? null });
    const entry = routes[path];
    const answer = typeof entry === "function" ? entry() : entry;
    if (!answer) {
      return new Response(JSON.stringify({ code: "route_not_found", title: "Not Found", status: 404 }), {
        status: 404,
        headers: { "Content-Type": "application/problem+json" },
      });
    }
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "Content-Type": answer.status >= 400 ? "application/problem+json" : "application/json" },
    });
  });
  await setLanguage("id");
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const problem = (status: number, code: string, detail: string) => ({
  status,
  body: { type: `https://warga.id/problems/${code}`, title: "x", status, code, detail },
});

describe("the sign-in screen", () => {
  it("labels its fields, and after a failed sign-in shows the API's problem and keeps what was typed", async () => {
    routes["/api/auth/login"] = problem(401, "invalid_credentials", "Email atau kata sandi salah");
    render(
      <LocationProvider>
        <SignIn />
      </LocationProvider>,
    );
    const email = screen.getByLabelText("Email") as HTMLInputElement;
    const password = screen.getByLabelText("Kata sandi") as HTMLInputElement;
    fireEvent.input(email, { target: { value: "warga1@warga.test" } });
    fireEvent.input(password, { target: { value: "salah" } });
    fireEvent.click(screen.getByRole("button", { name: "Masuk" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "Email atau kata sandi salah");
    expect(email.value).toBe("warga1@warga.test");
    expect(password.value).toBe("salah");
    const sent = seen.find((s) => s.path === "/api/auth/login");
    expect(JSON.parse(sent?.body ?? "{}")).toEqual({ email: "warga1@warga.test", password: "salah" });
    expect(sent?.headers.get("X-Warga-Client")).toBe("web");
  });
});

const user = {
  id: "u1",
  name: "Budi Santoso",
  email: "budi@warga.test",
  roles: [],
  resident: true,
  tenant: { slug: "rt-01", name: "RT 01", type: "RT" },
};

async function signedIn() {
  routes["/api/auth/login"] = { status: 200, body: { accessToken: "a", expiresIn: 900, user } };
  await signIn({ email: "budi@warga.test", password: "x" });
}

describe("the home screen", () => {
  it("shows each block's data: unpaid dues in rupiah, letters in progress, open polls, announcements", async () => {
    await signedIn();
    routes["/api/iuran/mine"] = {
      status: 200,
      body: {
        unitId: "n1",
        items: [
          { id: "b1", typeName: "Iuran Kebersihan", period: "2026-11", outstanding: 25000, status: "belum" },
          { id: "b2", typeName: "Iuran Keamanan", period: "2026-10", outstanding: 0, status: "lunas" },
        ],
        totals: { billed: 50000, paid: 25000, outstanding: 25000, unpaidBills: 1 },
      },
    };
    routes["/api/surat/mine"] = {
      status: 200,
      body: {
        items: [
          { id: "s1", jenisName: "Surat Pengantar", status: "selesai", createdAt: "2026-11-20T01:00:00Z" },
        ],
      },
    };
    routes["/api/musyawarah"] = {
      status: 200,
      body: { items: [{ id: "p1", title: "Kerja bakti", endsAt: "2026-11-29T10:00:00Z" }] },
    };
    routes["/api/pengumuman"] = { status: 200, body: { items: [] } };
    routes["/api/visitor/mine"] = { status: 200, body: { items: [] } };
    routes["/api/berita"] = { status: 200, body: { items: [] } };
    render(<Home />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Halo, Budi Santoso");
    expect(await screen.findByText("Rp25.000")).toBeTruthy();
    expect(screen.getByText("Total: Rp25.000")).toBeTruthy();
    expect(screen.queryByText(/Iuran Keamanan/)).toBeNull();
    expect(await screen.findByText("selesai, siap diunduh")).toBeTruthy();
    expect(await screen.findByText("ditutup 29 Nov 2026")).toBeTruthy();
    expect(await screen.findByText("Belum ada pengumuman.")).toBeTruthy();
  });

  it("shows a loading placeholder, then the problem with a retry that loads again", async () => {
    await signedIn();
    let fail = true;
    routes["/api/iuran/mine"] = () =>
      fail
        ? problem(503, "busy", "Server sedang sibuk")
        : { status: 200, body: { unitId: "n", items: [], totals: { outstanding: 0 } } };
    routes["/api/surat/mine"] = { status: 200, body: { items: [] } };
    routes["/api/musyawarah"] = { status: 200, body: { items: [] } };
    routes["/api/pengumuman"] = { status: 200, body: { items: [] } };
    routes["/api/visitor/mine"] = { status: 200, body: { items: [] } };
    routes["/api/berita"] = { status: 200, body: { items: [] } };
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    render(<Home />);
    expect(screen.getAllByRole("status").length).toBeGreaterThan(0);
    await vi.runAllTimersAsync();
    vi.useRealTimers();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Server sedang sibuk");
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Coba lagi" }));
    expect(await screen.findByText("Tidak ada iuran yang belum dibayar.")).toBeTruthy();
    expect(await screen.findByText("Tidak ada surat yang sedang diproses.")).toBeTruthy();
  });

  it("switches to English from one catalogue per language", async () => {
    await signedIn();
    routes["/api/iuran/mine"] = { status: 200, body: { unitId: "n", items: [], totals: { outstanding: 0 } } };
    routes["/api/surat/mine"] = { status: 200, body: { items: [] } };
    routes["/api/musyawarah"] = { status: 200, body: { items: [] } };
    routes["/api/pengumuman"] = { status: 200, body: { items: [] } };
    routes["/api/visitor/mine"] = { status: 200, body: { items: [] } };
    routes["/api/berita"] = { status: 200, body: { items: [] } };
    await setLanguage("en");
    render(<Home />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Hello, Budi Santoso");
    expect(await screen.findByText("No unpaid dues.")).toBeTruthy();
    expect(Object.keys(en).sort()).toEqual(Object.keys(id).sort());
    await waitFor(() => expect(seen.some((s) => s.headers.get("Accept-Language") === "en")).toBe(true));
  });

  it("shows guests waiting or expected today, polls not yet voted, the latest news, each block linking to its screen", async () => {
    await signedIn();
    const now = new Date();
    const yesterday = new Date(now.getTime() - 86_400_000).toISOString();
    routes["/api/iuran/mine"] = { status: 200, body: { unitId: "n", items: [], totals: { outstanding: 0 } } };
    routes["/api/surat/mine"] = { status: 200, body: { items: [] } };
    routes["/api/musyawarah"] = {
      status: 200,
      body: {
        items: [
          { id: "p1", title: "Kerja bakti", endsAt: "2026-11-29T10:00:00Z", hasVoted: true },
          { id: "p2", title: "Pos ronda baru", endsAt: "2026-11-30T10:00:00Z", hasVoted: false },
        ],
      },
    };
    routes["/api/pengumuman"] = { status: 200, body: { items: [] } };
    routes["/api/visitor/mine"] = {
      status: 200,
      body: {
        items: [
          {
            id: "v1",
            guestName: "Pak Rahmat",
            visitAt: now.toISOString(),
            status: "menunggu",
            checkedInAt: null,
            checkedOutAt: null,
          },
          {
            id: "v2",
            guestName: "Bu Sari",
            visitAt: now.toISOString(),
            status: "disetujui",
            checkedInAt: null,
            checkedOutAt: null,
          },
          {
            id: "v3",
            guestName: "Kemarin",
            visitAt: yesterday,
            status: "disetujui",
            checkedInAt: null,
            checkedOutAt: null,
          },
        ],
      },
    };
    routes["/api/berita"] = {
      status: 200,
      body: { items: [{ id: "n1", title: "Lomba 17 Agustus", publishedAt: "2026-11-20T01:00:00Z" }] },
    };
    render(<Home />);
    expect(await screen.findByText("Pak Rahmat")).toBeTruthy();
    expect(screen.getByText("menunggu persetujuan")).toBeTruthy();
    expect(screen.getByText("datang hari ini")).toBeTruthy();
    expect(screen.queryByText("Kemarin")).toBeNull();
    expect(await screen.findByText("Pos ronda baru")).toBeTruthy();
    expect(screen.queryByText("Kerja bakti")).toBeNull();
    expect(await screen.findByText("Lomba 17 Agustus")).toBeTruthy();
    for (const [name, href] of [
      ["Iuran belum dibayar", "/iuran"],
      ["Surat", "/surat"],
      ["Tamu hari ini", "/tamu"],
      ["Musyawarah yang dibuka", "/musyawarah"],
      ["Berita terbaru", "/berita"],
    ]) {
      expect(screen.getByRole("link", { name }).getAttribute("href")).toBe(href);
    }
  });
});
