// Floors for the benches' goals (issue 49, item 6): a time or CPU goal is judged against a bare operation
// measured in the same run, the same way, with its rounds interleaved with the row's, so a busy machine
// stretches the row and its floor alike and met / not met does not flip with the load.
//
// The floors the suites use (scripts/bench/entry.ts serves the bare routes):
// - the bare D1 session read (`GET /__bare-d1-session`): the irreducible part of a tenant read;
// - the bare D1 read (`GET /__bare-d1`) and the bare route (`GET /__bare`), shown beside it;
// - the bare Durable Object increment (`POST /__bare-do`, poll-votes.mjs fires it like the votes);
// - one password check (`GET /__bare-hash/peppered`): sign-in's floor;
// - a suite's own bare operation where that is the honest floor (a warm restart of `npm run dev` for a
//   fresh one, a public read through the same `wrangler dev` for the identity routes' gap, one plain
//   line pass over the same megabyte for the reply stripper).
//
// Judging is pure (`overFloor`, `ratioTo`, `floorNear`, `bestOf`, `sandwiched`, `medianInterval`,
// `atItsLine`; test/scripts/bench.test.mjs pins them).
// An allowance in floors is scale-free: a load that multiplies the row and its floor by the same factor
// leaves the verdict where it was. Every time goal is given in floors: the `api` table's millisecond goals
// of issue 32 were turned into floors of the quiet machine they were set on (ADR 0015, seventh pass). An
// allowance in milliseconds (`ms`) stays possible for a suite whose floor does not scale with its row.

/** The bare routes of the bench entry, by the floor they stand for. */
export const FLOOR_PATHS = {
  bare: "/__bare",
  d1: "/__bare-d1",
  d1Session: "/__bare-d1-session",
  passwordCheck: "/__bare-hash/peppered",
};

const fmt = (ms) =>
  Math.abs(ms) >= 100 ? ms.toFixed(0) : Math.abs(ms) >= 10 ? ms.toFixed(1) : ms.toFixed(2);

/**
 * A figure judged on what it adds over its floor: `floors` (allowance in floors: adds ≤ floors × floor)
 * or `ms` (adds ≤ ms), or both (the larger allowance). `name` names the floor in the goal's text. A floor
 * not measured (undefined, NaN, ≤ 0) is a goal not met that says so: never a pass by default.
 */
export function overFloor({ figure, floor, floors, ms, name = "floor", unit = "ms" }) {
  if (!(floor > 0) || !Number.isFinite(floor) || !Number.isFinite(figure)) {
    return { met: false, adds: Number.NaN, ratio: Number.NaN, text: `${name} not measured: not judged` };
  }
  if (floors === undefined && ms === undefined) {
    throw new Error("overFloor: give an allowance in floors or in ms");
  }
  const adds = figure - floor;
  const limit = Math.max(floors === undefined ? 0 : floors * floor, ms ?? 0);
  const allowance = [
    floors === undefined ? null : `${floors} floors`,
    ms === undefined ? null : `${ms} ${unit}`,
  ]
    .filter(Boolean)
    .join(" or ");
  return {
    met: adds <= limit,
    adds,
    ratio: figure / floor,
    text: `${name} ${fmt(floor)} ${unit}, adds ${fmt(adds)} = ${(adds / floor).toFixed(1)} floors (≤ ${allowance})`,
  };
}

/** A figure judged as a ratio to its floor: figure ≤ max × floor. */
export function ratioTo({ figure, floor, max, name = "floor", unit = "ms" }) {
  if (!(floor > 0) || !Number.isFinite(floor) || !Number.isFinite(figure)) {
    return { met: false, ratio: Number.NaN, text: `${name} not measured: not judged` };
  }
  const ratio = figure / floor;
  return {
    met: ratio <= max,
    ratio,
    text: `${fmt(figure)} ${unit} = ${ratio.toFixed(2)}× ${name} ${fmt(floor)} ${unit} (≤ ${max}×)`,
  };
}

/**
 * The floor of the row at `index` from floors measured between rows (`[{ at, value }]`, `at` the number
 * of rows measured before that floor): the median of the `span` floors measured last before the row and
 * the `span` first after it (the mean of the two middle ones for an even count). The floors nearest the
 * row follow the load as it drifts through a run, and one floor that caught a burst of other work (a
 * garbage collection, another process) cannot move the floor of the rows around it by much.
 */
export function floorNear(floors, index, span = 2) {
  const before = floors.filter((f) => f.at <= index).slice(-span);
  const after = floors.filter((f) => f.at > index).slice(0, span);
  return middle([...before, ...after].map((f) => f.value));
}

/**
 * The least of a figure's rounds (NaN if none was measured): how the `routes` table reads a row measured
 * in rounds minutes apart. What disturbs a round of CPU (a burst of the machine's other work, a garbage
 * collection owed by the work before, a storage flush) only ever adds to it, so the least round is the
 * closest to the work's own cost. Measured on that table (ADR 0015, ninth pass): in four pairs of runs,
 * the median round flipped 10–15 of 136 verdicts, the least round 2–4.
 */
export function bestOf(values) {
  const measured = values.filter((v) => Number.isFinite(v) && v > 0);
  return measured.length === 0 ? Number.NaN : Math.min(...measured);
}

/**
 * A row measured in short slices, each between two slices of its floor (F R F R F …, several rows may
 * take turns between the floors: F A F B F A …): each slice of the row is set against the mean of the
 * floor slices either side of it, measured seconds before and after, so a drift of the machine's speed
 * over the run (a burst of other work, a slower stretch of D1) stretches the slice and its own floor
 * alike; the row's figure is the median of its slices, so one slice caught in a burst, or one floor
 * that was, cannot move it. `slices` is the sequence as measured, `[{ kind, value }]` with `kind`
 * "floor" or the row's name; a slice with no floor on one side is set against the floor on the other.
 * Returns, for `row`, the median excess in floors (`floors`) and in the unit (`adds`), the median floor
 * the row's slices met (`floor`), the number of slices judged (`n`) and the least and most of them in
 * floors (`least`, `most`).
 */
export function sandwiched(slices, row) {
  const ratios = [];
  const adds = [];
  const met = [];
  slices.forEach((s, i) => {
    if (s.kind !== row || !Number.isFinite(s.value)) {
      return;
    }
    const before = slices.slice(0, i).findLast((f) => f.kind === "floor");
    const after = slices.slice(i + 1).find((f) => f.kind === "floor");
    const sides = [before, after].filter((f) => f && Number.isFinite(f.value) && f.value > 0);
    if (sides.length === 0) {
      return;
    }
    const floor = sides.reduce((sum, f) => sum + f.value, 0) / sides.length;
    ratios.push((s.value - floor) / floor);
    adds.push(s.value - floor);
    met.push(floor);
  });
  return {
    floors: middle(ratios),
    adds: middle(adds),
    floor: middle(met),
    n: ratios.length,
    least: Math.min(...ratios),
    most: Math.max(...ratios),
    interval: medianInterval(ratios),
  };
}

/**
 * How sure a median of `n` measurements is, without assuming their spread has any shape: the
 * distribution-free interval of order statistics (the `k`-th least and the `k`-th most of the values hold
 * the true median with the chance that a fair coin thrown `n` times shows heads at least `k` times and
 * tails at least `k` times). `k` is the largest that keeps that chance at `confidence` or more; for 24
 * slices and 0.9 it is the 8th least to the 8th most (93.6 %). Null for fewer than 5 values, where
 * not even the least and the most reach 0.9.
 */
export function medianInterval(xs, confidence = 0.9) {
  const sorted = xs.filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  // P(B ≤ j) for B ~ Binomial(n, ½), j = 0…n/2 (no k past the middle is asked for), from the binomial
  // coefficients in logarithms (2^n overflows past n = 1023).
  const below = [];
  let logCoefficient = 0;
  let sum = 0;
  for (let j = 0; j <= n / 2; j++) {
    sum += Math.exp(logCoefficient - n * Math.LN2);
    below.push(sum);
    logCoefficient += Math.log((n - j) / (j + 1));
  }
  let k = 0;
  while (k + 1 <= n / 2 && 1 - 2 * below[k] >= confidence) {
    k++;
  }
  if (k === 0) {
    return null;
  }
  return { low: sorted[k - 1], high: sorted[n - k], k, coverage: 1 - 2 * below[k - 1] };
}

/**
 * Whether a row judged on slices is at its line: its allowance lies inside the interval of its median
 * (`medianInterval`), so its slices do not say on which side of the line it is, and another run may
 * give the other verdict. A row whose interval lies wholly on one side, or that has too few slices for
 * an interval, is not.
 */
export function atItsLine(s, allowance) {
  return Boolean(s.interval) && s.interval.low <= allowance && allowance < s.interval.high;
}

/** The median of `xs` (the mean of the two middle values for an even count); NaN for none. */
function middle(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) {
    return Number.NaN;
  }
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A row judged on what its sandwiched slices add over their floors (`sandwiched`): met when the median
 * excess is at most `floors` floors. No slice judged, or a floor not measured, is a goal not met.
 */
export function sandwichedOverFloor({ slices, row, floors, name = "floor", unit = "ms" }) {
  const s = sandwiched(slices, row);
  if (s.n === 0 || !Number.isFinite(s.floors)) {
    return { met: false, ...s, text: `${name} not measured: not judged` };
  }
  const interval = s.interval
    ? `, the median ${s.interval.low.toFixed(2)} to ${s.interval.high.toFixed(2)} at ${Math.floor(s.interval.coverage * 100)} %${atItsLine(s, floors) ? ": at its line" : ""}`
    : "";
  return {
    met: s.floors <= floors,
    ...s,
    text: `${name} ${fmt(s.floor)} ${unit}, adds ${fmt(s.adds)} = ${s.floors.toFixed(2)} floors (≤ ${floors} floors; median of ${s.n} slices, ${s.least.toFixed(2)} to ${s.most.toFixed(2)}, each between two of the floor${interval})`,
  };
}

/** The line a suite prints for goals that are not about time, so they stay absolute. */
export function absoluteNote(what) {
  return `not a time: ${what}, judged as absolute figures (load does not move them)`;
}

/**
 * Two medians that should match (known against unknown emails), judged on their gap: within `share` of
 * the smaller, or within one floor (a bare request's own median through the same server, in the same
 * run), whichever is larger. Both bounds stretch with the load as the medians do.
 */
export function gapWithin({ a, b, floor, share, name = "floor" }) {
  if (!(floor > 0) || !Number.isFinite(a) || !Number.isFinite(b)) {
    return { met: false, gap: Number.NaN, text: `${name} not measured: not judged` };
  }
  const gap = Math.abs(a - b);
  const bound = Math.max(floor, share * Math.min(a, b));
  return {
    met: gap <= bound,
    gap,
    text: `medians ${fmt(a)} and ${fmt(b)} ms, ${fmt(gap)} ms apart = ${(gap / floor).toFixed(2)} floors (${name} ${fmt(floor)} ms); ≤ ${fmt(bound)} ms, the larger of one floor and ${share * 100} %`,
  };
}
