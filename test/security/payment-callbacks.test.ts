import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobs } from "../../src/app";
import { platformDb } from "../../src/core/db/platform";
import { newId } from "../../src/core/ids";
import {
  pruneUnverifiedCallbacks,
  UNVERIFIED_FIELD_MAX,
  UNVERIFIED_KEEP_HOURS,
} from "../../src/platform/payments/callbackLimits";
import { paymentCallbacks } from "../../src/platform/payments/tables";
import { bindings, call, callJson, expectProblem } from "../helpers/harness";

/**
 * Issue 31, N4: the public payment callback can no longer be used to fill the platform database. An
 * unverified callback keeps only its claimed fields, truncated; the raw body is kept once the signature
 * verifies (test/modules/billing/payments.test.ts); callers are counted per address and per claimed
 * order; unverified rows go after a few hours.
 */
const db = () => platformDb(bindings);
const rowsOf = (orderId: string) =>
  db().select().from(paymentCallbacks).where(eq(paymentCallbacks.orderId, orderId));

const forged = (orderId: string, extra: Record<string, unknown> = {}) => ({
  order_id: orderId,
  transaction_status: "settlement",
  gross_amount: "150000.00",
  signature_key: "0".repeat(128),
  ...extra,
});

describe("the payment callback, unverified", () => {
  it("keeps no raw body and no field longer than the cap", async () => {
    const orderId = `uji-${"X".repeat(4000)}`;
    const res = await callJson("/api/payments/gateway/callback", {
      body: forged(orderId, { transaction_status: "s".repeat(5000), padding: "p".repeat(50_000) }),
    });
    expectProblem(res, 404, "payment_order_not_found");
    const [kept] = await rowsOf(orderId.slice(0, UNVERIFIED_FIELD_MAX));
    expect(kept).toMatchObject({ verified: false, outcome: "unknown_order", raw: "" });
    expect(kept?.claimedStatus).toHaveLength(UNVERIFIED_FIELD_MAX);
    expect(JSON.stringify(kept).length).toBeLessThan(600);
  });

  it("counts callbacks per claimed order, whatever the address", async () => {
    const orderId = `uji-${newId()}`;
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await call("/api/payments/gateway/callback", { body: forged(orderId) })).status);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(404));
    expect(statuses[30]).toBe(429);
    expect(await rowsOf(orderId)).toHaveLength(30);
  }, 60_000);

  it("counts callbacks per address, whatever the order", async () => {
    const headers = { "CF-Connecting-IP": "203.0.113.250" };
    let last = 0;
    for (let i = 0; i < 121; i++) {
      last = (await call("/api/payments/gateway/callback", { body: forged(`uji-${newId()}`), headers }))
        .status;
      if (i < 120) {
        expect(last).toBe(404);
      }
    }
    expect(last).toBe(429);
    const other = await call("/api/payments/gateway/callback", {
      body: forged(`uji-${newId()}`),
      headers: { "CF-Connecting-IP": "203.0.113.251" },
    });
    expect(other.status).toBe(404);
  }, 120_000);

  it("prunes unverified callbacks after a few hours by the hourly job, and keeps verified ones", async () => {
    expect(jobs.some((j) => j.name === "payments.prune-unverified-callbacks" && j.cron === "0 * * * *")).toBe(
      true,
    );
    const orderId = `uji-${newId()}`;
    const at = (hoursAgo: number) =>
      new Date(Date.parse("2026-11-26T12:00:00Z") - hoursAgo * 3_600_000).toISOString();
    const row = (verified: boolean, hoursAgo: number) => ({
      id: newId(),
      gateway: "midtrans",
      orderId,
      raw: verified ? "{}" : "",
      verified,
      outcome: verified ? "applied" : "bad_signature",
      receivedAt: at(hoursAgo),
    });
    await db()
      .insert(paymentCallbacks)
      .values([row(false, UNVERIFIED_KEEP_HOURS + 1), row(false, UNVERIFIED_KEEP_HOURS - 1), row(true, 100)]);
    const report = await pruneUnverifiedCallbacks({ platform: db() }, new Date("2026-11-26T12:00:00Z"));
    expect(report.pruned).toBeGreaterThanOrEqual(1);
    const left = await rowsOf(orderId);
    expect(left.map((r) => [r.verified, r.receivedAt]).sort()).toEqual(
      [
        [false, at(UNVERIFIED_KEEP_HOURS - 1)],
        [true, at(100)],
      ].sort(),
    );
  });
});
