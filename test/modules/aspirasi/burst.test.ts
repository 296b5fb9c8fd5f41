import { describe, expect, it } from "vitest";
import { callJson, createTenant } from "../../helpers/harness";

/**
 * Issue 35's figure: six residents post 600 complaints, 60 at a time. Before the quotas every one was
 * accepted (600 × 201); with the complaint quota each resident gets their day's 20 and no more.
 */
describe("a burst of complaints (issue 35)", () => {
  it("six residents posting 600 complaints, 60 at a time, get 20 each accepted and the rest 429", {
    timeout: 120_000,
  }, async () => {
    const tenant = await createTenant();
    const residents = await Promise.all(Array.from({ length: 6 }, () => tenant.member("warga")));
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          callJson("/api/pengaduan", {
            token: residents[i % 6]?.token,
            body: {
              title: `Keluhan ${round}-${i}`,
              description: "Sampah menumpuk di depan pos ronda",
              category: "kebersihan",
            },
          }),
        ),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    const tally = Object.fromEntries(
      [...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length]),
    );
    console.log("issue-35 burst figure", JSON.stringify(tally));
    expect(tally).toEqual({ 201: 120, 429: 480 });
  });
});
