import { exports } from "cloudflare:workers";
import { afterAll, afterEach, beforeAll, describe, expect, it, type MockInstance, vi } from "vitest";
import { setLogLevel } from "../../src/core/http/log";
import { call, operatorToken } from "../helpers/harness";
import { openTicket, PNG, tenantWithAdmin, upload } from "../modules/support/helpers";

/**
 * Every route whose URL carries a credential declares it (`RouteDef.secret`): the access log shows the
 * parameter's name instead of its value, and the answer is never stored by a cache.
 */

let ticket: { id: string; reply_token: string };
let fileUrl: string;
let spies: MockInstance[] = [];

beforeAll(async () => {
  const { admin } = await tenantWithAdmin();
  ticket = await openTicket(admin, { title: "URL rahasia" });
  const up = await upload(`/api/public/support-tickets/${ticket.reply_token}/uploads`, {
    bytes: PNG,
    name: "a.png",
    type: "image/png",
  });
  expect(up.status).toBe(201);
  fileUrl = new URL(String(up.body.url)).pathname;
  // The configuration is cached by now, so the level set here holds for this file's requests.
  setLogLevel("info");
});

afterAll(() => setLogLevel("warn"));

afterEach(() => {
  for (const spy of spies) {
    spy.mockRestore();
  }
  spies = [];
});

/** A redirecting route's own answer: `call` would follow the redirect and log a second request. */
const unfollowed = (path: string, init: RequestInit = {}) =>
  exports.default.fetch(new Request(`http://api.test${path}`, { ...init, redirect: "manual" }));

/** Every line the Worker writes to the console during `run`, and the access log entries among them. */
async function logged(run: () => Promise<Response>) {
  const lines: string[] = [];
  for (const method of ["log", "warn", "error"] as const) {
    spies.push(
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => lines.push(args.join(" "))),
    );
  }
  const res = await run();
  await res.arrayBuffer();
  const requests = lines
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { event: string; path: string; status: number })
    .filter((l) => l.event === "request");
  return { res, lines, requests };
}

const secretCases: {
  name: string;
  secret: () => string;
  logged: () => string;
  run: () => Promise<Response>;
}[] = [
  {
    name: "GET /api/public/support-tickets/:reply_token",
    secret: () => ticket.reply_token,
    logged: () => "/api/public/support-tickets/{reply_token}",
    run: () => call(`/api/public/support-tickets/${ticket.reply_token}`),
  },
  {
    name: "POST /api/public/support-tickets/:reply_token/messages",
    secret: () => ticket.reply_token,
    logged: () => "/api/public/support-tickets/{reply_token}/messages",
    run: () =>
      call(`/api/public/support-tickets/${ticket.reply_token}/messages`, {
        body: { message: "Balasan uji." },
      }),
  },
  {
    name: "POST /api/public/support-tickets/:reply_token/uploads",
    secret: () => ticket.reply_token,
    logged: () => "/api/public/support-tickets/{reply_token}/uploads",
    run: async () => {
      const form = new FormData();
      form.set("file", new File([PNG], "b.png", { type: "image/png" }));
      return call(`/api/public/support-tickets/${ticket.reply_token}/uploads`, { body: form });
    },
  },
  {
    name: "GET /api/public/support-tickets/:reply_token/files/:id",
    secret: () => ticket.reply_token,
    logged: () => fileUrl.replace(ticket.reply_token, "{reply_token}"),
    run: () => call(fileUrl),
  },
  {
    name: "GET /support/reply/:reply_token",
    secret: () => ticket.reply_token,
    logged: () => "/support/reply/{reply_token}",
    run: () => call(`/support/reply/${ticket.reply_token}`),
  },
  {
    name: "POST /support/reply/:reply_token",
    secret: () => ticket.reply_token,
    logged: () => "/support/reply/{reply_token}",
    run: () => {
      const form = new FormData();
      form.set("message", "Dari halaman.");
      return unfollowed(`/support/reply/${ticket.reply_token}`, { method: "POST", body: form });
    },
  },
  {
    name: "GET /verify/surat/:code",
    secret: () => "kodeVerifikasiRahasia0123456789",
    logged: () => "/verify/surat/{code}",
    run: () => call("/verify/surat/kodeVerifikasiRahasia0123456789"),
  },
  {
    name: "GET /tamu/:pass",
    secret: () => "kartuTamuRahasia0123456789.abc.def",
    logged: () => "/tamu/{pass}",
    run: () => call("/tamu/kartuTamuRahasia0123456789.abc.def"),
  },
  {
    name: "GET /api/auth/oauth/:provider/callback?code=&state=",
    secret: () => "kodeOAuthRahasia0123456789",
    logged: () => "/api/auth/oauth/google/callback?code={redacted}&state={redacted}",
    run: () =>
      unfollowed("/api/auth/oauth/google/callback?code=kodeOAuthRahasia0123456789&state=stateRahasia98765"),
  },
];

describe("routes with a credential in the URL", () => {
  it.each(secretCases)("$name: logs no secret and answers no-store", async (route) => {
    const { res, lines, requests } = await logged(route.run);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.path).toBe(route.logged());
    expect(requests[0]?.status).toBe(res.status);
    expect(lines.join("\n")).not.toContain(route.secret());
    expect(lines.join("\n")).not.toContain("stateRahasia98765");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.status).toBeLessThan(500);
  });

  it("keeps the public ticket page's answers working (the token is only hidden from the log)", async () => {
    const { res } = await logged(() => call(`/api/public/support-tickets/${ticket.reply_token}`));
    expect(res.status).toBe(200);
    const image = await logged(() => call(fileUrl));
    expect(image.res.status).toBe(200);
    expect(image.res.headers.get("Content-Type")).toBe("image/png");
  });

  it("a route without secrets still logs its real path", async () => {
    const token = await operatorToken();
    const { res, requests } = await logged(() =>
      call(`/api/platform/support-tickets/${ticket.id}`, { token }),
    );
    expect(res.status).toBe(200);
    expect(requests.map((r) => r.path)).toEqual([`/api/platform/support-tickets/${ticket.id}`]);
    expect(res.headers.get("Cache-Control")).not.toBe("no-store");
  });
});
