import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  distanceKm,
  LAST_MILE_MS,
  LOCAL_TRIP_MS,
  model,
  nearestReplica,
  REQUESTS,
  RESIDENTS,
  rttMs,
  waits,
} from "../../scripts/latency-model.mjs";

const script = fileURLToPath(new URL("../../scripts/latency-model.mjs", import.meta.url));

/** The latency model of ADR 0036: its arithmetic, and the findings the ADR's decision rests on. */
describe("latency model (scripts/latency-model.mjs)", () => {
  it("measures distances on the globe and turns them into round trips", () => {
    // Jakarta–Singapore is about 900 km as the crow flies.
    expect(distanceKm("Jakarta", "Singapore")).toBeGreaterThan(850);
    expect(distanceKm("Jakarta", "Singapore")).toBeLessThan(950);
    expect(distanceKm("Medan", "Singapore")).toBeLessThan(distanceKm("Jakarta", "Singapore"));
    expect(rttMs("Jakarta", "Jakarta")).toBe(LOCAL_TRIP_MS);
    expect(rttMs("Jakarta", "San Jose")).toBeGreaterThan(rttMs("Jakarta", "Tokyo"));
    expect(nearestReplica("Jakarta", "Singapore")).toBe("Singapore");
  });

  it("adds one crossing per sequential round trip at the edge, and one crossing in all with placement", () => {
    const jakarta = RESIDENTS.find((r) => r.city === "Jakarta");
    const where = { primary: "San Jose", apac: "Singapore" };
    const write = { reads: 1, writes: 3, platform: 0 };
    const w = waits(jakarta, where, write);
    const toPrimary = rttMs("Jakarta", "San Jose");
    expect(w.edge).toBeCloseTo(LAST_MILE_MS + 4 * toPrimary);
    expect(w.sessions).toBeCloseTo(LAST_MILE_MS + rttMs("Jakarta", "Singapore") + 3 * toPrimary);
    expect(w.placed).toBeCloseTo(LAST_MILE_MS + toPrimary + 4 * LOCAL_TRIP_MS);
  });

  it("finds what ADR 0036 decides on", () => {
    const rows = model();
    expect(rows).toHaveLength(5 * RESIDENTS.length * REQUESTS.length);
    const row = (primary, city, request) =>
      rows.find((r) => r.primary === primary && r.city === city && r.request.startsWith(request));
    // A primary in apac: replicas change nothing for Indonesia (the nearest replica is the primary's
    // region), Smart Placement shortens requests with several round trips.
    for (const city of ["Jakarta", "Medan", "Makassar"]) {
      const read = row("apac", city, "list");
      expect(read.sessions).toBeCloseTo(read.edge);
      const write = row("apac", city, "write");
      expect(write.smart).toBeLessThan(write.edge - 25);
      expect(read.smart - read.edge).toBeLessThanOrEqual(LOCAL_TRIP_MS);
    }
    // A primary far away (created without a location hint from Europe or America): replicas bring reads
    // back to what an apac primary gives, and Smart Placement then stays at the edge.
    for (const primary of ["wnam", "weur"]) {
      const far = row(primary, "Jakarta", "list");
      expect(far.sessions).toBeCloseTo(row("apac", "Jakarta", "list").edge);
      expect(far.edge).toBeGreaterThan(far.sessions + 100);
      expect(far.movedSessions).toBe(false);
    }
  });

  it("prints the table and the rows as JSON", () => {
    const table = execFileSync(process.execPath, [script], { encoding: "utf8" });
    expect(table).toMatch(/^primary\s+resident\s+via\s+request\s+edge\s+sessions\s+smart/);
    for (const city of ["Jakarta", "Medan", "Makassar"]) {
      expect(table).toContain(city);
    }
    const json = JSON.parse(execFileSync(process.execPath, [script, "--json"], { encoding: "utf8" }));
    expect(json).toEqual(JSON.parse(JSON.stringify(model())));
  });
});
