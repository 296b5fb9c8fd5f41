import { expect } from "vitest";
import { callJson, type TestTenant } from "../../helpers/harness";

/** One child RT's figures in the RW summary. */
export interface Figures {
  residents: number;
  duesArrears: { amount: number; units: number };
  lettersAwaitingProcessing: number;
  complaintsOpen: number;
}

/** `GET /api/tenant-hierarchy/summary`. */
export interface Summary {
  children: { slug: string; name: string; figures: Figures | null; error: string | null }[];
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
