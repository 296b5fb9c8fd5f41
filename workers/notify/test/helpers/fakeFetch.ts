import { vi } from "vitest";

export interface OutboundCall {
  url: string;
  method: string;
  headers: Headers;
  text: string;
  request: Request;
}

export type FakeHandler = (call: OutboundCall, index: number) => Response | Promise<Response>;

// Fakes the network at the fetch boundary: the providers call the global fetch, so stubbing it here
// reaches them without touching our own modules. Unknown hosts fail loudly: tests have no network.
export function fakeFetch(handlers: Record<string, FakeHandler>) {
  const calls: OutboundCall[] = [];
  const perHost = new Map<string, number>();
  const spy = vi
    .spyOn(globalThis, "fetch")
    .mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const call: OutboundCall = {
        url: request.url,
        method: request.method,
        headers: request.headers,
        text: new TextDecoder().decode(await request.clone().arrayBuffer()),
        request: request.clone(),
      };
      calls.push(call);
      const host = new URL(request.url).host;
      const handler = handlers[host];
      if (!handler) {
        throw new Error(`unexpected outbound fetch to ${request.url}`);
      }
      const index = perHost.get(host) ?? 0;
      perHost.set(host, index + 1);
      return handler(call, index);
    });
  return {
    calls,
    to: (host: string) => calls.filter((c) => new URL(c.url).host === host),
    restore: () => spy.mockRestore(),
  };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

// Response shapes as the providers document them.
export const resendOk = (id = "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794") => json({ id });
export const gatewayOk = (id = "80367170") =>
  json({
    detail: "success! message in queue",
    id: [id],
    process: "pending",
    status: true,
    target: ["6281234567890"],
  });
export const fcmOk = (name = "projects/warga-test/messages/0:1700000000000000%abc") => json({ name });
export const googleTokenOk = (expiresIn = 3599) =>
  json({ access_token: "ya29.test-access-token", expires_in: expiresIn, token_type: "Bearer" });
