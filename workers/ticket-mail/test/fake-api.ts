// A stand-in for the main API's internal replies route, bound as the `API` service in tests.
// It runs in Node (a miniflare service function), so it keeps state across test files: tests
// register their own tokens and read back only the requests sent with them.
// Control routes, reachable only through the binding in tests:
//   POST /__test/tickets  { replyToken, failWith?: number | "network" }  → { ticketId }
//   GET  /__test/requests?replyToken=…                                   → RecordedRequest[]
import { Response } from "miniflare";
import { type RecordedRequest, TEST_INTERNAL_KEY } from "./fake-api-shared.ts";

type Ticket = { ticketId: string; failWith?: number | "network" };

type FakeRequest = {
  method: string;
  url: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
};

export function createFakeApi(): (request: FakeRequest) => Promise<Response> {
  const tickets = new Map<string, Ticket>();
  const appended = new Map<string, string>();
  const requests: RecordedRequest[] = [];

  const json = (status: number, body: unknown, type = "application/json"): Response =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": type } });

  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/__test/tickets" && request.method === "POST") {
      const input = JSON.parse(await request.text()) as { replyToken: string; failWith?: number | "network" };
      const ticketId = `01TICKET${String(tickets.size).padStart(18, "0")}`;
      tickets.set(input.replyToken, { ticketId, failWith: input.failWith });
      return json(201, { ticketId });
    }
    if (url.pathname === "/__test/requests" && request.method === "GET") {
      const token = url.searchParams.get("replyToken");
      return json(
        200,
        requests.filter((r) => (r.body as { replyToken?: string } | null)?.replyToken === token),
      );
    }

    const text = await request.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    requests.push({
      method: request.method,
      url: request.url,
      contentType: request.headers.get("content-type"),
      internalKey: request.headers.get("x-service-internal-key"),
      body,
    });
    if (url.pathname !== "/internal/support-tickets/replies" || request.method !== "POST") {
      return json(404, { status: 404, code: "not_found" }, "application/problem+json");
    }
    if (request.headers.get("x-service-internal-key") !== TEST_INTERNAL_KEY) {
      return json(401, { status: 401, code: "unauthorized" }, "application/problem+json");
    }
    const reply = body as { replyToken: string; messageId: string };
    const ticket = tickets.get(reply.replyToken);
    if (ticket === undefined) {
      return json(
        404,
        { type: "about:blank", title: "Not Found", status: 404, code: "ticket_not_found" },
        "application/problem+json",
      );
    }
    if (ticket.failWith === "network") {
      throw new Error("simulated connection reset");
    }
    if (ticket.failWith !== undefined) {
      return json(
        ticket.failWith,
        { status: ticket.failWith, code: "unavailable" },
        "application/problem+json",
      );
    }
    if (appended.has(reply.messageId)) {
      return json(200, { duplicate: true });
    }
    appended.set(reply.messageId, ticket.ticketId);
    return json(201, { ticketId: ticket.ticketId, messageId: reply.messageId });
  };
}
