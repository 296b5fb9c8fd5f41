// The bench's own local state (issue 30): every suite migrates, seeds and serves `.wrangler/bench-state`
// (or the directory `WARGA_STATE_DIR` names), never the `.wrangler/state` a running `npm run dev` holds
// open. Imported first by every entry point of the benches, before anything reads STATE_DIR
// (scripts/lib/wrangler.mjs reads the variable once, when it is first imported).
import { join } from "node:path";
import { root } from "../lib/dev-server.mjs";

export const BENCH_STATE_DIR = join(root, ".wrangler", "bench-state");

process.env.WARGA_STATE_DIR ||= BENCH_STATE_DIR;

/**
 * `BENCH_SMOKE=1` (or `npm run bench -- --smoke`): every suite once at a size that takes seconds, to
 * prove it still runs against the current schema and routes; no figure is judged. Each suite reads its
 * own knobs from the environment, so the smoke sizes are set here, before any suite is imported; a
 * knob the caller set wins.
 */
export const SMOKE_KNOBS = {
  BENCH_SECONDS: "0.3",
  BENCH_ROUNDS: "1",
  BENCH_CONNECTIONS: "2",
  BENCH_SIGN_INS: "1",
  BENCH_VOTERS: "20",
  BENCH_ACCOUNTS: "2",
  BENCH_PEER_FAMILIES: "60",
  BENCH_PEER_PERSONS: "200",
  BENCH_LARGE_FAMILIES: "100",
  BENCH_LARGE_PERSONS: "360",
  BENCH_TICKETS: "100",
  BENCH_UNITS: "40",
  BENCH_FAMILIES: "100",
  BENCH_PERSONS: "360",
  BENCH_VEHICLES: "120",
  BENCH_CHILDREN: "2",
  BENCH_LETTERS: "1",
  BENCH_CACHED: "3",
  BENCH_ROUTES_SCALE: "0.02",
  BENCH_RW_CHILDREN: "2",
  BENCH_SMOKE: "1",
};

export const smoke = () => process.env.BENCH_SMOKE === "1";

export function applySmokeKnobs() {
  for (const [name, value] of Object.entries(SMOKE_KNOBS)) {
    process.env[name] ??= value;
  }
}
