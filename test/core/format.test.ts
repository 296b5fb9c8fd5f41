import { describe, expect, it } from "vitest";
import {
  calendarDate,
  jakartaDate,
  jakartaDateTime,
  jakartaShortDate,
  monthName,
  periodName,
  rupiah,
} from "../../src/core/format";

describe("how amounts and dates are written", () => {
  it("writes rupiah with dots between thousands and no space", () => {
    expect(rupiah(0)).toBe("Rp0");
    expect(rupiah(49_000)).toBe("Rp49.000");
    expect(rupiah(1_250_000.4)).toBe("Rp1.250.000");
    expect(rupiah(-900_000)).toBe("-Rp900.000");
  });

  it("names months in Indonesian by default and in English when asked, and refuses month 13", () => {
    expect(monthName(1)).toBe("Januari");
    expect(monthName(8, "en")).toBe("August");
    expect(() => monthName(13)).toThrow(RangeError);
    expect(periodName("2026-11")).toBe("November 2026");
    expect(periodName("2026-05", "en")).toBe("May 2026");
  });

  it("writes a calendar day as is and an instant as its day in Jakarta", () => {
    expect(calendarDate("2026-11-21")).toBe("21 November 2026");
    expect(calendarDate("2026-02-03T23:00:00Z", "en")).toBe("3 February 2026");
    // 17:30 UTC on 30 November is already 1 December in Jakarta (UTC+7).
    expect(jakartaDate("2026-11-30T17:30:00Z")).toBe("1 Desember 2026");
    expect(jakartaDate(new Date("2026-11-30T16:59:00Z"))).toBe("30 November 2026");
  });

  it("writes the short form with the month's first three letters, in Jakarta's day", () => {
    expect(jakartaShortDate("2026-11-29T03:00:00Z")).toBe("29 Nov 2026");
    expect(jakartaShortDate("2026-08-17T00:00:00+07:00")).toBe("17 Agu 2026");
    expect(jakartaShortDate("2026-10-31T17:00:00Z", "en")).toBe("1 Nov 2026");
    expect(jakartaShortDate("2026-05-02T12:00:00Z")).toBe("2 Mei 2026");
  });
  it("writes an instant's Jakarta day and time, each language with its own time separator", () => {
    // 17:30 UTC on the 28th is 00:30 on the 29th in Jakarta.
    expect(jakartaDateTime("2026-11-28T17:30:00Z")).toBe("29 November 2026, 00.30 WIB");
    expect(jakartaDateTime(new Date("2026-11-28T07:05:00Z"), "en")).toBe("28 November 2026, 14:05 WIB");
  });
});
