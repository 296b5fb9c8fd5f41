import { describe, expect, it } from "vitest";
import { jakartaDay, jakartaDayRange } from "../../src/core/time";

describe("Asia/Jakarta calendar days", () => {
  it("turns inclusive days into a half-open UTC range", () => {
    expect(jakartaDayRange("2026-11-05", "2026-11-05")).toEqual({
      gte: "2026-11-04T17:00:00.000Z",
      lt: "2026-11-05T17:00:00.000Z",
    });
  });

  it("puts 23:30 WIB in its own day and 00:30 WIB in the next", () => {
    expect(jakartaDay("2026-11-05T23:30:00+07:00")).toBe("2026-11-05");
    expect(jakartaDay("2026-11-06T00:30:00+07:00")).toBe("2026-11-06");
  });

  it("rejects dates that are not on the calendar", () => {
    for (const bad of ["2026-13-01", "2026-02-30", "2026-00-10", "26-11-05"]) {
      expect(() => jakartaDayRange(bad), bad).toThrow(/calendar date/);
    }
    expect(() => jakartaDayRange("2026-11-06", "2026-11-05")).toThrow(/must not be after/);
  });
});
