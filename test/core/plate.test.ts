import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayPlate, plateKey, plateKeySql, plateSearchKey } from "../../src/core/plate";
import { Plate } from "../../src/core/schemas";
import { tenantD1 } from "../helpers/d1";
import { createTenant } from "../helpers/harness";

/** A standard plate's parts: region letters, number, suffix letters (ADR 0047). */
const letters = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Z]{${min},${max}}$`));
const standard = fc.tuple(letters(1, 2), fc.integer({ min: 1, max: 9999 }).map(String), letters(0, 3));

/** The plate as someone might type it: any case, parts joined by nothing, spaces or dashes, padded. */
const typed = (parts: string[]) =>
  fc
    .tuple(
      fc.array(fc.constantFrom("", " ", "  ", "-", " - ", "--"), { minLength: 2, maxLength: 2 }),
      fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
      fc.constantFrom("", " ", "\t"),
    )
    .map(([seps, lower, pad]) => {
      const text = parts
        .filter(Boolean)
        .reduce((acc, part, i) => `${acc}${i === 0 ? "" : seps[i - 1]}${part}`, "");
      const cased = [...text].map((ch, i) => (lower[i % 16] ? ch.toLowerCase() : ch)).join("");
      return `${pad}${cased}${pad}`;
    });

describe("plates (src/core/plate.ts)", () => {
  it("any spacing, dash or case variant of a plate has the plate's key and its display form", () => {
    fc.assert(
      fc.property(
        standard.chain((parts) => fc.tuple(fc.constant(parts), typed(parts), typed(parts))),
        ([parts, a, b]) => {
          const key = parts.join("");
          expect(plateKey(a)).toBe(key);
          expect(plateKey(b)).toBe(key);
          expect(displayPlate(a)).toBe(parts.filter(Boolean).join(" "));
          expect(displayPlate(a)).toBe(displayPlate(b));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the display form round-trips: it is its own display form and has the same key", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9 -]{1,20}$/), (text) => {
        const shown = displayPlate(text);
        if (shown === null) {
          expect(plateKey(text)).toBeNull();
          return;
        }
        expect(displayPlate(shown)).toBe(shown);
        expect(plateKey(shown)).toBe(plateKey(text));
      }),
      { numRuns: 300 },
    );
  });

  it("the examples of issue 49 are one plate; other shapes are kept as typed; non-plates are refused", () => {
    for (const spelling of ["B 1234 XYZ", "b1234xyz", "B-1234-XYZ", " b 1234-xyz "]) {
      expect(displayPlate(spelling)).toBe("B 1234 XYZ");
      expect(plateKey(spelling)).toBe("B1234XYZ");
    }
    expect(displayPlate("d 5 a")).toBe("D 5 A");
    expect(displayPlate("ab12")).toBe("AB 12");
    // Not the region-number-suffix shape (a military or older series): upper case, as typed.
    expect(displayPlate("12345 - 00")).toBe("12345-00");
    expect(plateKey("12345 - 00")).toBe("1234500");
    expect(displayPlate("abc 1234")).toBe("ABC 1234");
    for (const bad of ["", "   ", "-", "B 1234 XYZ!", "B_1234", "B.1234", "B 1234 XYZ 1234 ABCD", "Б 1234"]) {
      expect(plateKey(bad), bad).toBeNull();
      expect(displayPlate(bad), bad).toBeNull();
    }
    expect(plateSearchKey("b")).toBeNull();
    expect(plateSearchKey("1234-x")).toBe("1234X");
  });

  it("the API's Plate field keeps the display form and refuses what is not a plate", () => {
    expect(Plate.parse("b-1234-xyz")).toBe("B 1234 XYZ");
    expect(Plate.safeParse("B@1234").success).toBe(false);
    expect(Plate.safeParse("x".repeat(21)).success).toBe(false);
  });

  it("the database's key (migration 0034's, the fill trigger's) is the same as plateKey's", async () => {
    const tenant = await createTenant();
    const db = tenantD1(tenant);
    const samples = fc.sample(
      standard.chain((parts) => typed(parts)),
      { numRuns: 60, seed: 49 },
    );
    samples.push("12345 - 00", "ab-12", " D  5678   xy ");
    const { results } = await db
      .prepare(`SELECT value AS typed, ${plateKeySql("value")} AS key FROM json_each(?)`)
      .bind(JSON.stringify(samples))
      .all<{ typed: string; key: string }>();
    for (const row of results) {
      expect(row.key, JSON.stringify(row.typed)).toBe(plateKey(row.typed));
    }
  });
});
