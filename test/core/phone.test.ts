import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { msisdnSql, normaliseIndonesianMobile, phoneSearchDigits, toMsisdn } from "../../src/core/phone";
import { PhoneNumber } from "../../src/core/schemas";
import { tenantD1 } from "../helpers/d1";
import { createTenant } from "../helpers/harness";
import { phoneSpellings, storedMobile, typedSpelling } from "../helpers/phone";

describe("phone numbers (src/core/phone.ts, ADR 0047)", () => {
  it("any spelling of a number is the stored number, for input, delivery and the registry's field", () => {
    fc.assert(
      fc.property(
        storedMobile.chain((stored) => fc.tuple(fc.constant(stored), typedSpelling(stored))),
        ([stored, typed]) => {
          expect(normaliseIndonesianMobile(typed)).toBe(stored);
          expect(toMsisdn(typed.trim())).toBe(stored);
          expect(PhoneNumber.parse(typed)).toBe(stored);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a search typed in any spelling, whole or only its start, is the start of the stored number", () => {
    fc.assert(
      fc.property(
        storedMobile.chain((stored) =>
          fc.tuple(fc.constant(stored), typedSpelling(stored), fc.integer({ min: 5, max: 20 })),
        ),
        ([stored, typed, cut]) => {
          const digits = phoneSearchDigits(typed.slice(0, cut));
          if (digits !== null) {
            expect(stored.startsWith(digits), `${typed.slice(0, cut)} → ${digits}`).toBe(true);
          }
          expect(phoneSearchDigits(typed)).toBe(stored);
        },
      ),
      { numRuns: 300 },
    );
    expect(phoneSearchDigits("0812-3456")).toBe("628123456");
    expect(phoneSearchDigits("Budi")).toBeNull();
    expect(phoneSearchDigits("08")).toBeNull();
  });

  it("refuses what is not a number, and keeps a foreign number in the registry's field", () => {
    for (const bad of ["", "0812-abc-7890", "++6281234567890", "12", "0812 3456 7890 1234 5678"]) {
      expect(PhoneNumber.safeParse(bad).success, bad).toBe(false);
    }
    expect(PhoneNumber.parse("+65 6123 4567")).toBe("6561234567");
    // Landlines and foreign numbers are not WhatsApp sign-in numbers.
    expect(normaliseIndonesianMobile("021-555-0199")).toBeNull();
    expect(normaliseIndonesianMobile("+65 6123 4567")).toBeNull();
    expect(
      phoneSpellings("6281234567890").every((t) => normaliseIndonesianMobile(t) === "6281234567890"),
    ).toBe(true);
  });

  it("the migration's rewrite of stored registry numbers is toMsisdn's, for the old rule's values", async () => {
    const tenant = await createTenant();
    const old = fc.sample(
      fc.tuple(
        fc.constantFrom("", "+"),
        fc.constantFrom("0", "62", "65", "1"),
        fc.stringMatching(/^\d{7,11}$/),
      ),
      { numRuns: 80, seed: 47 },
    );
    const values = old.map(([plus, prefix, rest]) => `${plus}${prefix}${rest}`);
    const { results } = await tenantD1(tenant)
      .prepare(`SELECT value AS typed, ${msisdnSql("value")} AS stored FROM json_each(?)`)
      .bind(JSON.stringify(values))
      .all<{ typed: string; stored: string }>();
    for (const row of results) {
      expect(row.stored, row.typed).toBe(toMsisdn(row.typed));
    }
  });
});
