// Issue 45: the built-in assistant answers at least 90% of the realistic questions in
// test/fixtures/asisten/questions.json correctly (`npm run bench -- asisten` prints the same score). The
// built-in mode is deterministic and reads only its tools, so it runs here in Node over fixed records.
import { describe, expect, it } from "vitest";
import { GOAL, judge, loadCases, score } from "../fixtures/asisten/score.ts";

describe("the built-in assistant's score on everyday questions", () => {
  it("has at least 60 questions, follow-ups among them, and answers at least 90% correctly", async () => {
    const cases = loadCases();
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expect(cases.filter((c) => c.ask.length > 1).length).toBeGreaterThanOrEqual(10);
    const result = await score(cases);
    // The failures are the message, so a drop says which questions it lost.
    expect(result.ratio, result.failures.map((f) => `${f.name}: ${f.why}`).join("\n")).toBeGreaterThanOrEqual(
      GOAL,
    );
  });

  it("judges a reply by the records it cites and its words, so a wrong answer counts as wrong", async () => {
    const wrong = await judge({
      name: "asks for October, expects September",
      ask: ["tagihan bulan oktober?"],
      expect: { sources: ["tagihan"], contains: ["September 2026"] },
    });
    expect(wrong.ok).toBe(false);
    expect(wrong.why).toContain('lacks "September 2026"');
    const wrongTopic = await judge({
      name: "asks for letters, expects dues",
      ask: ["status surat saya"],
      expect: { sources: ["tagihan"] },
    });
    expect(wrongTopic.ok).toBe(false);
    expect(wrongTopic.why).toContain("cites [surat]");
  });
});
