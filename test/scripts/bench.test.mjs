// The benches' own pieces, in Node without workerd (`npm run bench -- --smoke` in `.ci/run` runs the
// suites themselves): their state is never `npm run dev`'s, the SQL they seed with runs against the
// current schema, and the routes bench reads its operations' callers, filters and goals as it should.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

/** A D1-shaped handle over an in-memory SQLite database: what the bench's seeding code calls. */
function d1(db) {
  const statement = (sql, params = []) => ({
    bind: (...values) => statement(sql, values),
    all: async () => ({ results: db.prepare(sql).all(...params) }),
    first: async () => db.prepare(sql).get(...params) ?? null,
    run: async () => db.prepare(sql).run(...params),
  });
  return {
    prepare: (sql) => statement(sql),
    batch: async (statements) => {
      db.exec("BEGIN");
      try {
        for (const s of statements) {
          await s.run();
        }
        db.exec("COMMIT");
      } catch (error) {
        db.exec("ROLLBACK");
        throw error;
      }
    },
  };
}

/** A Miniflare-shaped handle: every binding the bench asks for, each its own in-memory database. */
function fakeMiniflare() {
  const databases = new Map();
  return {
    databases,
    getD1Database: async (binding) => {
      if (!databases.has(binding)) {
        databases.set(binding, new DatabaseSync(":memory:"));
      }
      return d1(databases.get(binding));
    },
  };
}

function node(script, env = {}) {
  const clean = { ...process.env, ...env };
  if (!("WARGA_STATE_DIR" in env)) {
    delete clean.WARGA_STATE_DIR;
  }
  return execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    env: clean,
    encoding: "utf8",
  }).trim();
}

describe("bench state (issue 30, item 7)", () => {
  it("is the bench's own directory, never the state `npm run dev` runs on", () => {
    const dev = node(`import { STATE_DIR } from "./scripts/lib/wrangler.mjs"; console.log(STATE_DIR);`);
    const bench = node(
      `import "./scripts/bench/state.mjs"; const { STATE_DIR } = await import("./scripts/lib/wrangler.mjs"); console.log(STATE_DIR);`,
    );
    expect(dev).toBe(join(ROOT, ".wrangler", "state"));
    expect(bench).toBe(join(ROOT, ".wrangler", "bench-state"));
  }, 60_000);

  it("refuses to clear rate limits anywhere but a bench's own state", () => {
    const script = `import { resetLocalRateLimits } from "./scripts/lib/wrangler.mjs";
      try { resetLocalRateLimits(); console.log("cleared"); } catch { console.log("refused"); }`;
    expect(node(script)).toBe("refused");
  }, 60_000);

  it("serves every suite from the bench state: no suite names npm run dev's", () => {
    const dir = join(ROOT, "scripts", "bench");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".mjs"))) {
      const text = readFileSync(join(dir, file), "utf8");
      expect(text, file).not.toMatch(/\.wrangler["', /]+state["']/);
    }
  });
});

describe("bench seeding SQL against the current schema", () => {
  let mf;
  let counts;
  let tenants;
  beforeAll(async () => {
    process.env.BENCH_ROUTES_SCALE = "0.01";
    const { migrateAndSeed } = await import("../../scripts/bench/d1.mjs");
    const { seedLargeRt } = await import("../../scripts/bench/routes-data.mjs");
    mf = fakeMiniflare();
    tenants = await migrateAndSeed(mf, 8);
    counts = await seedLargeRt(mf, 8);
    // Hashing the demo passwords and migrating nine databases: seconds alone, minutes on a busy machine.
  }, 300_000);

  it("migrates and seeds through bindings: the demo tenants, their accounts and rows", async () => {
    expect(tenants.map((t) => t.slug).sort()).toEqual(["rt-01-sukamaju", "rt-02-sukamaju", "rw-05-sukamaju"]);
    const platform = mf.databases.get("PLATFORM_DB");
    expect(platform.prepare("SELECT COUNT(*) AS n FROM users").get().n).toBeGreaterThan(10);
    // A second pass applies nothing twice (the ledger) and writes nothing new (INSERT OR IGNORE).
    const { migrateAndSeed } = await import("../../scripts/bench/d1.mjs");
    const before = platform.prepare("SELECT COUNT(*) AS n FROM users").get().n;
    await migrateAndSeed(mf, 8);
    expect(platform.prepare("SELECT COUNT(*) AS n FROM users").get().n).toBe(before);
  }, 120_000);

  it("grows the large RT with every module's rows at the asked sizes", async () => {
    const { SIZES } = await import("../../scripts/bench/routes-data.mjs");
    expect(counts.kk).toBeGreaterThanOrEqual(SIZES.families);
    expect(counts.persons).toBeGreaterThanOrEqual(SIZES.persons);
    expect(counts.bills).toBeGreaterThanOrEqual(SIZES.units * SIZES.duesMonths);
    expect(counts.payments).toBeGreaterThan(0);
    expect(counts.polls).toBeGreaterThanOrEqual(SIZES.polls);
    for (const key of [
      "cashEntries",
      "letters",
      "complaints",
      "berita",
      "pengumuman",
      "visitors",
      "listings",
    ]) {
      expect(counts[key], key).toBeGreaterThanOrEqual(SIZES[key]);
    }
  });

  it("splits SQL at statements, not inside strings or trigger bodies", async () => {
    const { splitSql } = await import("../../scripts/bench/d1.mjs");
    expect(
      splitSql(
        "INSERT INTO t VALUES ('a; b');\n-- a comment; here\nCREATE TRIGGER x AFTER INSERT ON t BEGIN UPDATE t SET a = 1; END;\nSELECT 1",
      ),
    ).toEqual([
      "INSERT INTO t VALUES ('a; b')",
      "-- a comment; here\nCREATE TRIGGER x AFTER INSERT ON t BEGIN UPDATE t SET a = 1; END",
      "SELECT 1",
    ]);
  });
});

describe("routes bench", () => {
  let routes;
  beforeAll(async () => {
    routes = await import("../../scripts/bench/routes.mjs");
  });

  it("reads who may call each GET from the access manifests", () => {
    const manifest = routes.readManifests(ROOT);
    expect(manifest["/api/kependudukan/kk"]).toEqual(["sekretaris", "admin"]);
    expect(manifest["/api/iuran/mine"]).toEqual(["warga"]);
    expect(manifest["/api/user/me"]).toBe("user");
    expect(manifest["/api/platform/tenants"]).toBe("platform");
    expect(Object.keys(manifest).length).toBeGreaterThan(60);
  });

  it("calls each as a role allowed to: staff first, the resident for their own", () => {
    expect(routes.roleFor("/api/kependudukan/kk", ["sekretaris", "admin"])).toBe("sekretaris");
    expect(routes.roleFor("/api/iuran/tunggakan", ["bendahara", "sekretaris", "admin"])).toBe("sekretaris");
    expect(routes.roleFor("/api/surat/mine", ["warga"])).toBe("warga");
    expect(routes.roleFor("/api/pasar/mine", ["warga", "bendahara", "sekretaris", "admin"])).toBe("warga");
    expect(routes.roleFor("/api/user/me", "user")).toBe("warga");
    expect(routes.roleFor("/api/platform/tenants", "platform")).toBeNull();
    expect(routes.roleFor("/api/health", "public")).toBeNull();
  });

  it("fills each documented filter with a value its schema accepts", () => {
    const now = new Date("2026-11-26T05:00:00.000Z");
    const date = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" };
    const month = { type: "string", pattern: "^\\d{4}-(0[1-9]|1[0-2])$" };
    expect(routes.sampleValue({ name: "from", schema: date }, now)).toBe("2025-11-26");
    expect(routes.sampleValue({ name: "to", schema: date }, now)).toBe("2026-11-26");
    expect(routes.sampleValue({ name: "bulan", schema: month }, now)).toBe("2026-11");
    expect(
      routes.sampleValue({ name: "status", schema: { type: "string", enum: ["baru", "selesai"] } }, now),
    ).toBe("baru");
    expect(routes.sampleValue({ name: "category", schema: { type: "string", minLength: 2 } }, now)).toBe(
      "iuran",
    );
    expect(routes.sampleValue({ name: "q", schema: { type: "string" } }, now)).toBe("Agus");
  });

  it("judges lists and aggregates on what they add over their floor, files against a Worker's memory and CPU", () => {
    expect(routes.kindOf("/api/kependudukan/kk")).toBe("read");
    expect(routes.kindOf("/api/iuran/tunggakan")).toBe("aggregate");
    expect(routes.kindOf("/api/iuran/tagihan/pratinjau")).toBe("aggregate");
    expect(routes.kindOf("/api/tenant-hierarchy/summary")).toBe("aggregate");
    expect(routes.kindOf("/api/kependudukan/export")).toBe("heavy");
    // A quiet machine's floor (~1.3 ms): a list may add 3 floors, an aggregate 7.
    expect(routes.judge({ kind: "read", cpuMs: 5.1, floorMs: 1.3 }).met).toBe(true);
    expect(routes.judge({ kind: "read", cpuMs: 5.3, floorMs: 1.3 }).met).toBe(false);
    expect(routes.judge({ kind: "aggregate", cpuMs: 10.3, floorMs: 1.3 }).met).toBe(true);
    expect(routes.judge({ kind: "aggregate", cpuMs: 10.5, floorMs: 1.3 }).met).toBe(false);
    // A loaded machine stretches a row and its floor alike: the verdict does not move (issue 49: two
    // runs, one loaded, agree on met and not met).
    fc.assert(
      fc.property(
        fc.constantFrom("read", "aggregate"),
        fc.double({ min: 0.2, max: 5, noNaN: true }),
        fc.double({ min: 0.5, max: 20, noNaN: true }),
        fc.double({ min: 1, max: 8, noNaN: true }),
        (kind, floorMs, cpuMs, load) =>
          routes.judge({ kind, cpuMs, floorMs }).met ===
          routes.judge({ kind, cpuMs: cpuMs * load, floorMs: floorMs * load }).met,
      ),
    );
    expect(routes.judge({ kind: "heavy", cpuMs: 900, peakMiB: 130, bytes: 1 }).met).toBe(false);
    expect(routes.judge({ kind: "heavy", cpuMs: 900, peakMiB: 40, bytes: 1 }).met).toBe(true);
  });

  it("sets two saved runs side by side: the rows whose verdicts differ, in lines, and how many agree", () => {
    const dir = mkdtempSync(join(tmpdir(), "warga-agree-"));
    const row = (path, cpuMs, met, kind = "read") => ({
      line: kind === "heavy" ? null : (cpuMs - 1) / 3,
      path,
      label: "",
      role: "sekretaris",
      kind,
      cpuMs,
      floorMs: 1,
      met,
    });
    const quiet = join(dir, "quiet.json");
    const loaded = join(dir, "loaded.json");
    const same = join(dir, "same.json");
    writeFileSync(
      quiet,
      JSON.stringify([row("/api/a", 3, true), row("/api/b", 3.9, true), row("/api/x", 1, true, "heavy")]),
    );
    writeFileSync(
      loaded,
      JSON.stringify([row("/api/a", 3.2, true), row("/api/b", 4.3, false), row("/api/x", 1, false, "heavy")]),
    );
    writeFileSync(same, JSON.stringify([row("/api/a", 2.8, true), row("/api/b", 3.5, true)]));
    const agree = (...files) => {
      try {
        return {
          code: 0,
          out: execFileSync(process.execPath, [join(ROOT, "scripts", "bench", "agree.mjs"), ...files], {
            encoding: "utf8",
          }),
        };
      } catch (error) {
        return { code: error.status, out: error.stdout };
      }
    };
    const differ = agree(quiet, loaded);
    expect(differ.code).toBe(1);
    // A file row (heavy) is judged on absolute limits, not set against the other run's.
    expect(differ.out).toContain("GET /api/b as sekretaris: met / NOT met (0.97 / 1.10 of its line)");
    expect(differ.out).toContain("1 of 2 judged rows agree across 2 runs");
    expect(agree(quiet, same)).toEqual({ code: 0, out: expect.stringContaining("2 of 2 judged rows agree") });
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("floors (issue 49, item 6): goals judged against a floor measured in the same run", () => {
  let floors;
  beforeAll(async () => {
    floors = await import("../../scripts/bench/floors.mjs");
  });

  it("judges what a figure adds over its floor, in floors or in ms", () => {
    expect(floors.overFloor({ figure: 5.1, floor: 1.3, floors: 3 }).met).toBe(true);
    expect(floors.overFloor({ figure: 5.3, floor: 1.3, floors: 3 }).met).toBe(false);
    expect(floors.overFloor({ figure: 1.7, floor: 1.3, ms: 0.5 }).met).toBe(true);
    expect(floors.overFloor({ figure: 1.9, floor: 1.3, ms: 0.5 }).met).toBe(false);
    // Both given: the larger allowance.
    expect(floors.overFloor({ figure: 3.5, floor: 1, floors: 2, ms: 3 }).met).toBe(true);
    const judged = floors.overFloor({ figure: 4, floor: 1, floors: 3, name: "D1 session read" });
    expect(judged.adds).toBe(3);
    expect(judged.ratio).toBe(4);
    expect(judged.text).toContain("D1 session read 1.00 ms, adds 3.00 = 3.0 floors (≤ 3 floors)");
    expect(() => floors.overFloor({ figure: 1, floor: 1 })).toThrow(/allowance/);
  });

  it("never passes a goal whose floor was not measured", () => {
    for (const floor of [undefined, Number.NaN, 0, -1]) {
      const judged = floors.overFloor({ figure: 0.1, floor, floors: 100 });
      expect(judged.met).toBe(false);
      expect(judged.text).toMatch(/not measured/);
      expect(floors.ratioTo({ figure: 0.1, floor, max: 100 }).met).toBe(false);
      expect(floors.gapWithin({ a: 1, b: 1, floor, share: 0.25 }).met).toBe(false);
    }
    expect(floors.overFloor({ figure: Number.NaN, floor: 1, floors: 3 }).met).toBe(false);
  });

  it("judges a ratio to the floor", () => {
    expect(floors.ratioTo({ figure: 30, floor: 10, max: 3 }).met).toBe(true);
    expect(floors.ratioTo({ figure: 31, floor: 10, max: 3 }).met).toBe(false);
    expect(floors.ratioTo({ figure: 36.6, floor: 12.2, max: 3, name: "warm", unit: "s" }).text).toBe(
      "36.6 s = 3.00× warm 12.2 s (≤ 3×)",
    );
  });

  it("judges a gap between two medians within one floor or a share of the smaller", () => {
    // A floor of 4 ms: a 3 ms gap is inside it even where 25 % of the smaller (2.5) is not.
    expect(floors.gapWithin({ a: 10, b: 13, floor: 4, share: 0.25 }).met).toBe(true);
    expect(floors.gapWithin({ a: 10, b: 15, floor: 4, share: 0.25 }).met).toBe(false);
    expect(floors.gapWithin({ a: 100, b: 124, floor: 4, share: 0.25 }).met).toBe(true);
    expect(floors.gapWithin({ a: 100, b: 126, floor: 4, share: 0.25 }).met).toBe(false);
  });

  it("does not move a verdict when load stretches the figure and its floor alike", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.2, max: 5, noNaN: true }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.double({ min: 1, max: 8, noNaN: true }),
        fc.integer({ min: 1, max: 10 }),
        (floor, figure, load, allowance) => {
          const quiet = { figure, floor };
          const busy = { figure: figure * load, floor: floor * load };
          return (
            floors.overFloor({ ...quiet, floors: allowance }).met ===
              floors.overFloor({ ...busy, floors: allowance }).met &&
            floors.ratioTo({ ...quiet, max: allowance }).met ===
              floors.ratioTo({ ...busy, max: allowance }).met &&
            floors.gapWithin({ a: figure, b: figure + floor * 0.9, floor, share: 0.25 }).met ===
              floors.gapWithin({
                a: figure * load,
                b: (figure + floor * 0.9) * load,
                floor: floor * load,
                share: 0.25,
              }).met
          );
        },
      ),
    );
  });

  it("takes a figure's least round, so a disturbance in some rounds but not all moves neither it nor its verdict", () => {
    expect(floors.bestOf([4.2, 3.1, 7.9])).toBe(3.1);
    // A round that failed (NaN) or read nothing is not a round.
    expect(floors.bestOf([Number.NaN, 0, 2.5])).toBe(2.5);
    expect(floors.bestOf([])).toBeNaN();
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 3, noNaN: true }),
        fc.double({ min: 0.5, max: 40, noNaN: true }),
        // What disturbs the five rounds of a row and of its floor: any extra CPU, in all rounds but one.
        fc.array(fc.double({ min: 0, max: 30, noNaN: true }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.double({ min: 0, max: 3, noNaN: true }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 0, max: 4 }),
        (floor, figure, rowExtra, floorExtra, clean) => {
          const rounds = (cost, extra) => {
            const out = extra.map((e) => cost + e);
            out.splice(clean, 0, cost);
            return out;
          };
          const judged = floors.overFloor({
            figure: floors.bestOf(rounds(figure, rowExtra)),
            floor: floors.bestOf(rounds(floor, floorExtra)),
            floors: 3,
          });
          return judged.met === floors.overFloor({ figure, floor, floors: 3 }).met;
        },
      ),
    );
  });

  it("judges a row on slices each between two of its floor, so drift of the machine and one burst leave it", () => {
    const seq = (pattern) => pattern.map(([kind, value]) => ({ kind, value }));
    // Two rows taking turns between floors of 1 ms: each slice against the mean of its two floors.
    const slices = seq([
      ["floor", 1],
      ["read", 1.3],
      ["floor", 1.2],
      ["gate", 1.8],
      ["floor", 1],
      ["read", 1.4],
      ["floor", 1],
    ]);
    const read = floors.sandwiched(slices, "read");
    expect(read.n).toBe(2);
    // 1.3 over 1.1 and 1.4 over 1.0: the median of 0.1818… and 0.4.
    expect(read.floors).toBeCloseTo((0.2 / 1.1 + 0.4) / 2, 9);
    expect(read.adds).toBeCloseTo(0.3, 9);
    expect(floors.sandwiched(slices, "gate").floors).toBeCloseTo(0.7 / 1.1, 9);
    const judged = floors.sandwichedOverFloor({ slices, row: "read", floors: 0.4, name: "D1 session read" });
    expect(judged.met).toBe(true);
    expect(judged.text).toContain("adds 0.30 = 0.29 floors (≤ 0.4 floors; median of 2 slices");
    // No slice of the row, or no floor: not judged, not met.
    expect(floors.sandwichedOverFloor({ slices, row: "votes", floors: 9 }).met).toBe(false);
    expect(floors.sandwichedOverFloor({ slices: seq([["read", 1]]), row: "read", floors: 9 }).met).toBe(
      false,
    );

    const build = (rows, floor, row, speed) => {
      const out = [{ kind: "floor", value: floor * speed(0) }];
      for (let i = 0; i < rows; i++) {
        out.push({ kind: "row", value: row * speed(2 * i + 1) });
        out.push({ kind: "floor", value: floor * speed(2 * i + 2) });
      }
      return out;
    };
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.integer({ min: 3, max: 16 }),
        fc.double({ min: 0.5, max: 3, noNaN: true }),
        fc.double({ min: -0.02, max: 0.2, noNaN: true }),
        (floor, excess, rows, start, slope) => {
          // The machine's speed drifts through the run, linearly, by up to a fifth a slice (and never
          // below a third of its start): each slice's neighbours average to its own speed, so the
          // excess in floors is exact.
          const drifting = build(rows, floor, floor * (1 + excess), (i) => start * (1 + slope * i));
          return Math.abs(floors.sandwiched(drifting, "row").floors - excess) < 1e-9;
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.integer({ min: 5, max: 16 }),
        fc.nat(),
        fc.double({ min: 0.01, max: 30, noNaN: true }),
        (floor, excess, rows, at, burst) => {
          // One slice, a floor's or the row's, caught in a burst: the median slice is still a clean one.
          const measured = build(rows, floor, floor * (1 + excess), () => 1);
          measured[at % measured.length].value += burst;
          return Math.abs(floors.sandwiched(measured, "row").floors - excess) < 1e-9;
        },
      ),
    );
  });

  it("says how sure a median of slices is, without assuming a shape for their spread, and when a row is at its line", () => {
    // The classic table: 24 values hold the median between the 8th least and the 8th most at 93.6 %.
    const ranks = Array.from({ length: 24 }, (_, i) => i + 1);
    const i24 = floors.medianInterval(ranks);
    expect([i24.low, i24.high, i24.k]).toEqual([8, 17, 8]);
    expect(i24.coverage).toBeCloseTo(0.936, 3);
    // Too few values for 90 %: no interval rather than one that claims more than it holds.
    expect(floors.medianInterval([1, 2, 3, 4])).toBeNull();
    expect(floors.medianInterval([5, 1, 4, 2, 3])).toMatchObject({ low: 1, high: 5, k: 1 });
    // Past 1,023 values 2^n overflows: still an interval.
    expect(floors.medianInterval(Array.from({ length: 2000 }, (_, i) => i))?.k).toBe(963);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 5, maxLength: 300 }),
        (xs) => {
          const interval = floors.medianInterval(xs);
          const sorted = [...xs].sort((a, b) => a - b);
          const mid = sorted.length / 2;
          const median = sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
          // It holds the median, reaches the confidence asked, and one rank narrower would not.
          const narrower =
            interval.k < sorted.length / 2 ? 1 - 2 * binomialBelow(sorted.length, interval.k) : 0;
          return (
            interval.low <= median &&
            median <= interval.high &&
            interval.coverage >= 0.9 &&
            narrower < 0.9 &&
            interval.low === sorted[interval.k - 1] &&
            interval.high === sorted[sorted.length - interval.k]
          );
        },
      ),
    );
    // A row is at its line while its line is inside that interval.
    const seq = (values) =>
      values.flatMap((v) => [
        { kind: "floor", value: 1 },
        { kind: "row", value: 1 + v },
      ]);
    const near = floors.sandwiched(seq([0.1, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7]), "row");
    expect(floors.atItsLine(near, 0.4)).toBe(true);
    expect(
      floors.sandwichedOverFloor({
        slices: seq([0.1, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7]),
        row: "row",
        floors: 0.4,
      }).text,
    ).toContain(": at its line");
    expect(floors.atItsLine(near, 0.8)).toBe(false);
    expect(floors.atItsLine(near, 0.05)).toBe(false);
    // Under five slices there is no interval, and no such claim.
    expect(floors.atItsLine(floors.sandwiched(seq([0.3, 0.5]), "row"), 0.4)).toBe(false);
  });

  it("gives each row the median of the floors measured nearest it, so one floor caught in a burst does not move it", () => {
    const measured = [
      { at: 0, value: 1 },
      { at: 8, value: 3 },
      { at: 12, value: 5 },
    ];
    // One before and one after (span 1): their mean.
    expect(floors.floorNear(measured, 0, 1)).toBe(2);
    expect(floors.floorNear(measured, 7, 1)).toBe(2);
    expect(floors.floorNear(measured, 8, 1)).toBe(4);
    // After the last floor (none after it): that floor alone.
    expect(floors.floorNear(measured, 12, 1)).toBe(5);
    // Two each side (the default): the median of what there is.
    expect(floors.floorNear(measured, 0)).toBe(3);
    expect(floors.floorNear(measured, 9)).toBe(3);
    expect(floors.floorNear([], 3)).toBeNaN();
    // A floor of 1.3 ms measured every 8 rows, one of them caught in a burst (2.7 ms): the rows on either
    // side of it keep a floor of 1.3 ms, where the mean of the two around them read 2.0.
    const steady = [0, 8, 16, 24, 32, 40].map((at) => ({ at, value: at === 16 ? 2.7 : 1.3 }));
    for (const row of [8, 15, 16, 23]) {
      expect(floors.floorNear(steady, row)).toBeCloseTo(1.3, 9);
    }
  });
});

/** P(B ≤ j) for B ~ Binomial(n, ½), summed directly (the test's own, for small n). */
function binomialBelow(n, j) {
  let total = 0;
  let coefficient = 1;
  for (let i = 0; i <= j; i++) {
    total += coefficient;
    coefficient = (coefficient * (n - i)) / (i + 1);
  }
  return total / 2 ** n;
}
