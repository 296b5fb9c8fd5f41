import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, NetworkError, request, useCredentials } from "../src/api/client";

type Call = { url: string; init: RequestInit; headers: Headers };
let calls: Call[];
let answers: (() => Response | Promise<Response>)[];

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), {
      status,
      headers: {
        "Content-Type": status >= 400 ? "application/problem+json" : "application/json",
        ...headers,
      },
    });

beforeEach(() => {
  calls = [];
  answers = [];
  vi.useFakeTimers();
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push({ url, init, headers: new Headers(init.headers) });
    const next = answers.shift();
    if (!next) {
      throw new Error("no answer queued");
    }
    return next();
  });
  useCredentials({ accessToken: () => "tok-1", renew: async () => null, language: () => "id" });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the API client", () => {
  it("sends a write with an Idempotency-Key and retries a lost request with the same key", async () => {
    answers.push(() => Promise.reject(new TypeError("Failed to fetch")), json(201, { id: "t1" }));
    const pending = api.post<{ id: string }>("/api/tamu", { name: "Budi" });
    await vi.runAllTimersAsync();
    expect(await pending).toEqual({ id: "t1" });
    expect(calls).toHaveLength(2);
    const [first, second] = calls as [Call, Call];
    expect(first.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get("Idempotency-Key")).toBe(first.headers.get("Idempotency-Key"));
    expect(first.headers.get("Authorization")).toBe("Bearer tok-1");
    expect(first.headers.get("X-Warga-Client")).toBe("web");
    expect(first.headers.get("Accept-Language")).toBe("id");
  });

  it("keeps the caller's key (a person pressing the button again) and sends no key on reads", async () => {
    answers.push(json(200, { ok: true }), json(200, { items: [] }));
    await api.post("/api/x", {}, { idempotencyKey: "kunci-sama" });
    await api.get("/api/y", { query: { limit: 5, cursor: undefined } });
    expect(calls[0]?.headers.get("Idempotency-Key")).toBe("kunci-sama");
    expect(calls[1]?.headers.get("Idempotency-Key")).toBeNull();
    expect(calls[1]?.url).toBe("/api/y?limit=5");
  });

  it("sends If-Match with the version an edit started from, and returns the ETag of a read", async () => {
    answers.push(json(200, { id: "a" }, { ETag: '"v3"' }), json(200, { id: "a" }, { ETag: '"v4"' }));
    const read = await api.read<{ id: string }>("/api/pengumuman/a");
    expect(read.etag).toBe('"v3"');
    const edited = await api.put("/api/pengumuman/a", { title: "x" }, read.etag);
    expect(calls[1]?.headers.get("If-Match")).toBe('"v3"');
    expect(edited.etag).toBe('"v4"');
  });

  it("turns a problem+json answer into an ApiError with its code, detail and field errors", async () => {
    answers.push(
      json(400, {
        type: "https://warga.id/problems/invalid_input",
        title: "Bad Request",
        status: 400,
        code: "invalid_input",
        detail: "Permintaan tidak valid.",
        errors: [{ field: "email", message: "Email tidak valid" }],
      }),
    );
    const error = await api.post("/api/auth/magic-link", { email: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).problem).toMatchObject({ code: "invalid_input", status: 400 });
    expect((error as ApiError).problem.errors?.[0]?.field).toBe("email");
    expect((error as ApiError).message).toBe("Permintaan tidak valid.");
  });

  it("renews an expired access token once and repeats the request with the new one", async () => {
    let token = "old";
    useCredentials({
      accessToken: () => token,
      renew: async () => {
        token = "new";
        return token;
      },
      language: () => "en",
    });
    answers.push(
      json(401, { code: "token_expired", title: "Unauthorized", status: 401 }),
      json(200, { id: "me" }),
    );
    expect(await api.get("/api/user/me")).toEqual({ id: "me" });
    expect(calls.map((c) => c.headers.get("Authorization"))).toEqual(["Bearer old", "Bearer new"]);
  });

  it("gives up with a NetworkError when the server never answers, after the retries", async () => {
    answers.push(...Array.from({ length: 3 }, () => () => Promise.reject(new TypeError("offline"))));
    const pending = request("POST", "/api/x", { body: {} }).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await pending).toBeInstanceOf(NetworkError);
    expect(new Set(calls.map((c) => c.headers.get("Idempotency-Key"))).size).toBe(1);
  });
});
