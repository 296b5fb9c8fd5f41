import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import worker from "../../../src/index";
import { type CallInit, callJson, type TestTenant } from "../../helpers/harness";

/** One child RT's figures in the RW summary. */
export interface Figures {
  residents: number;
  duesArrears: { amount: number; units: number };
  lettersAwaitingProcessing: number;
  complaintsOpen: number;
}

/** The figures of an RT with nothing to count, and the total of a summary with no RT to read. */
export const noFigures: Figures = {
  residents: 0,
  duesArrears: { amount: 0, units: 0 },
  lettersAwaitingProcessing: 0,
  complaintsOpen: 0,
};

/** `GET /api/tenant-hierarchy/summary`. */
export interface Summary {
  children: {
    slug: string;
    name: string;
    figures: Figures | null;
    /** When the figures were read from the RT's database (ADR 0038); null with `error`. */
    asOf: string | null;
    error: string | null;
  }[];
  total: Figures;
}

/** What an RW's link-child answers (issue 27: a request until the RT's admin accepts). */
export interface LinkAnswer {
  child: { slug: string; name: string };
  status: "menunggu" | "disetujui";
}

/** The RW head asks an RT to join its RW. */
export const askLink = (token: string, slug: string) =>
  callJson<LinkAnswer>("/api/tenant-hierarchy/link-child", { token, body: { slug } });

/** The RT's admin reads the RW's pending request. */
export const parentRequest = (token: string) =>
  callJson<{ parent: { slug: string; name: string }; requestedAt: string; status: string }>(
    "/api/tenant-hierarchy/parent-request",
    { token },
  );

/** The RT's admin accepts or declines the RW's request. */
export const answer = (token: string, verdict: "accept" | "decline") =>
  callJson<{ parent: { slug: string; name: string }; linkedAt: string }>(
    `/api/tenant-hierarchy/parent-request/${verdict}`,
    { method: "POST", token },
  );

/**
 * Links `rt` to the RW of `rwToken` the way a community does: the RW head asks and the RT's admin
 * (a fresh one, or `rtAdminToken`) accepts.
 */
export async function linkAccepted(rwToken: string, rt: TestTenant, rtAdminToken?: string) {
  const asked = await askLink(rwToken, rt.slug);
  expect(asked.status).toBe(202);
  const token = rtAdminToken ?? (await rt.member("admin")).token;
  const accepted = await answer(token, "accept");
  expect(accepted.status).toBe(200);
  return accepted.body;
}

let settledIp = 1;

/**
 * Calls the API with an ExecutionContext of the test's own and returns once the work the request handed
 * to `waitUntil` has finished too (a write's refresh of its RT's kept figures, ADR 0038): what the
 * background work wrote can be read at once, with no waiting on the wall clock.
 */
export async function callSettled<T = Record<string, unknown>>(path: string, init: CallInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("CF-Connecting-IP", `198.19.${(settledIp >> 8) & 255}.${settledIp++ & 255}`);
  if (init.token) {
    headers.set("Authorization", `Bearer ${init.token}`);
  }
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  if (body) {
    headers.set("Content-Type", "application/json");
  }
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://api.test${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body }),
    env,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as T };
}

/** A complaint filed by `token`, with the background work of its request finished. */
export async function complaint(token: string, title: string) {
  const res = await callSettled<{ id: string }>("/api/pengaduan", {
    token,
    body: { title, description: "Saluran air tersumbat di depan rumah", category: "kebersihan" },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}
