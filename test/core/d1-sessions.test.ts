import { afterEach, describe, expect, it, vi } from "vitest";
import { BOOKMARK_HEADER, parseBookmark } from "../../src/core/tenancy/sessions";
import { tenantD1 } from "../helpers/d1";
import { call, callJson, createTenant, type Member, type TestTenant } from "../helpers/harness";

/**
 * Reads near the caller (ADR 0036): a tenant request reads through one D1 session started from the
 * client's `X-D1-Bookmark`, and every answer hands back the session's bookmark. Local D1 has a single
 * instance, so "reads that write" is also checked where it can fail here: the session each request opens
 * (the spy on the binding's `withSession`) and the order of the bookmarks.
 */
const D1_BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** Every session opened on `tenant`'s database while `fn` runs, by what it was started from. */
async function sessionsOpened<T>(
  tenant: TestTenant,
  fn: () => Promise<T>,
): Promise<{ result: T; from: string[] }> {
  const binding = tenantD1(tenant);
  const proto = Object.getPrototypeOf(binding) as D1Database;
  const spy = vi.spyOn(proto, "withSession");
  try {
    const result = await fn();
    const from = spy.mock.calls
      .filter((_, i) => spy.mock.contexts[i] === binding)
      .map(([constraint]) => String(constraint));
    return { result, from };
  } finally {
    spy.mockRestore();
  }
}

function bookmarkOf(res: { headers: Headers }, tenant: TestTenant): string {
  const header = res.headers.get(BOOKMARK_HEADER);
  const parsed = parseBookmark(header);
  expect(parsed, `${BOOKMARK_HEADER}: ${header}`).not.toBeNull();
  expect(parsed?.tenantId).toBe(tenant.id);
  expect(parsed?.bookmark).toMatch(D1_BOOKMARK);
  return parsed?.bookmark as string;
}

const complain = (who: Member, headers: Record<string, string> = {}, title = "Lampu jalan mati") =>
  callJson<{ id: string }>("/api/pengaduan", {
    token: who.token,
    headers,
    body: { title, description: "Lampu di depan blok C mati sejak Senin", category: "infrastruktur" },
  });

async function community() {
  const tenant = await createTenant();
  return { tenant, warga: await tenant.member("warga"), admin: await tenant.member("admin") };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("tenant reads through a D1 session (ADR 0036)", () => {
  it("answers a tenant read with the bookmark of its community's database", async () => {
    const { tenant, warga } = await community();
    const { result: res, from } = await sessionsOpened(tenant, () =>
      callJson("/api/pengaduan/mine", { token: warga.token }),
    );
    expect(res.status).toBe(200);
    bookmarkOf(res, tenant);
    // No bookmark sent: one session, free to start on the nearest replica.
    expect(from).toEqual(["first-unconstrained"]);
  });

  it("starts the next request from the bookmark of a write, and that request reads the write", async () => {
    const { tenant, warga } = await community();
    const written = await complain(warga);
    expect(written.status).toBe(201);
    const header = written.headers.get(BOOKMARK_HEADER) as string;
    const afterWrite = bookmarkOf(written, tenant);
    const { result: read, from } = await sessionsOpened(tenant, () =>
      callJson<{ id: string }>(`/api/pengaduan/${written.body.id}`, {
        token: warga.token,
        headers: { [BOOKMARK_HEADER]: header },
      }),
    );
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(written.body.id);
    expect(from).toEqual([afterWrite]);
    expect(bookmarkOf(read, tenant) >= afterWrite).toBe(true);
  });

  it("answers a write with a bookmark no older than the one it was sent, and newer once it wrote", async () => {
    const { tenant, warga } = await community();
    const read = await callJson("/api/pengaduan/mine", { token: warga.token });
    const before = bookmarkOf(read, tenant);
    const written = await complain(warga, { [BOOKMARK_HEADER]: read.headers.get(BOOKMARK_HEADER) as string });
    expect(written.status).toBe(201);
    const after = bookmarkOf(written, tenant);
    expect(after > before).toBe(true);
    // Another write later moves it on again: bookmarks sort oldest to newest.
    const later = await complain(
      warga,
      { [BOOKMARK_HEADER]: written.headers.get(BOOKMARK_HEADER) as string },
      "Got mampet",
    );
    expect(bookmarkOf(later, tenant) > after).toBe(true);
  });

  it("never hands one community's bookmark to another community's database", async () => {
    const a = await community();
    const b = await community();
    const fromA = (await complain(a.warga)).headers.get(BOOKMARK_HEADER) as string;
    const { result: res, from } = await sessionsOpened(b.tenant, () =>
      callJson("/api/pengaduan/mine", { token: b.warga.token, headers: { [BOOKMARK_HEADER]: fromA } }),
    );
    expect(res.status).toBe(200);
    expect(from).toEqual(["first-unconstrained"]);
    bookmarkOf(res, b.tenant);
  });

  it("reads as a first request when the bookmark is malformed or overlong, never 500", async () => {
    const { tenant, warga } = await community();
    const good = (await complain(warga)).headers.get(BOOKMARK_HEADER) as string;
    const bad = [
      "garbage",
      "first-primary",
      `${tenant.id}:zzzzzzzz-00000000-00000000-00000000000000000000000000000000`,
      `${tenant.id}:${"0".repeat(8)}`,
      `${good} `.repeat(3),
      `${good}${"f".repeat(32_000)}`,
      "<script>".repeat(10),
    ];
    for (const header of bad) {
      const { result: res, from } = await sessionsOpened(tenant, () =>
        call("/api/pengaduan/mine", { token: warga.token, headers: { [BOOKMARK_HEADER]: header } }),
      );
      expect(res.status, header.slice(0, 40)).toBe(200);
      expect(from).toEqual(["first-unconstrained"]);
      bookmarkOf(res, tenant);
      await res.body?.cancel();
    }
  });

  it("hands a bookmark back unchanged where no tenant database was read, and none where none was sent", async () => {
    const { tenant, warga } = await community();
    const header = (await complain(warga)).headers.get(BOOKMARK_HEADER) as string;
    const health = await call("/api/health", { headers: { [BOOKMARK_HEADER]: header } });
    expect(health.headers.get(BOOKMARK_HEADER)).toBe(header);
    const bare = await call("/api/health");
    expect(bare.headers.get(BOOKMARK_HEADER)).toBeNull();
    // A request refused before the verb read anything keeps the client's place too.
    const refused = await call("/api/pengaduan", {
      token: warga.token,
      headers: { [BOOKMARK_HEADER]: header },
      body: { title: "" },
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get(BOOKMARK_HEADER)).toBe(header);
    bookmarkOf(refused, tenant);
  });

  it("answers a replayed write with a bookmark from the primary, at least as new as the first answer's", async () => {
    const { tenant, warga } = await community();
    const first = await complain(warga, { "Idempotency-Key": "d1-session-replay" });
    expect(first.status).toBe(201);
    const firstBookmark = bookmarkOf(first, tenant);
    const { result: again, from } = await sessionsOpened(tenant, () =>
      complain(warga, { "Idempotency-Key": "d1-session-replay" }),
    );
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(from).toContain("first-primary");
    expect(bookmarkOf(again, tenant) >= firstBookmark).toBe(true);
  });

  it("declares the header in /openapi.json on the operations that read a community", async () => {
    type Op = {
      parameters?: { $ref?: string }[];
      responses: Record<string, { headers?: Record<string, unknown> }>;
    };
    const doc = (
      await callJson<{
        components: { parameters: Record<string, { name: string; in: string }> };
        paths: Record<string, Record<string, Op>>;
      }>("/openapi.json")
    ).body;
    expect(doc.components.parameters.D1Bookmark).toMatchObject({ name: BOOKMARK_HEADER, in: "header" });
    const ref = { $ref: "#/components/parameters/D1Bookmark" };
    const mine = doc.paths["/api/pengaduan/mine"]?.get;
    expect(mine?.parameters).toContainEqual(ref);
    expect(mine?.responses["200"]?.headers?.[BOOKMARK_HEADER]).toEqual({
      $ref: "#/components/headers/D1Bookmark",
    });
    // An operator route reads no community for its caller.
    expect(doc.paths["/api/platform/tenants"]?.get?.parameters ?? []).not.toContainEqual(ref);
  });

  it("lets browsers send and read the header (CORS)", async () => {
    const origin = { Origin: "http://localhost:5173" };
    const { tenant, warga } = await community();
    const res = await call("/api/pengaduan/mine", { token: warga.token, headers: origin });
    expect(res.headers.get("Access-Control-Expose-Headers")?.split(",")).toContain(BOOKMARK_HEADER);
    bookmarkOf(res, tenant);
    const preflight = await call("/api/pengaduan/mine", {
      method: "OPTIONS",
      headers: {
        ...origin,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-d1-bookmark",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Headers")?.split(",")).toContain(BOOKMARK_HEADER);
  });
});
