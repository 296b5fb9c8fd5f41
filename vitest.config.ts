import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order the slots take files in. vitest queues every project's files in one pool and hands the next
 * file to the first free slot; a runtime shared across files (`isolate: false`: the api, notify,
 * ticket-mail and scripts projects) is kept only while the next file queued is of its own project, and
 * starting one again costs seconds (most of a minute for the api's). So each project's files stay
 * together, and:
 * 1. the web app's browser journeys go first (minutes in one file, mostly waiting on the browser), so
 *    they run beside everything else;
 * 2. then the api project, largest first, so its runtime starts at once and the last of its files to
 *    finish are short ones;
 * 3. then the other end-to-end file, and the small projects last, three at a time.
 * Measured on this machine (vitest's Duration, quiet): 372 s with the small projects before the api
 * project (the api's runtime then started 198 s in), 355 s in this order. vitest's own order (by project
 * name, then longest last time or largest) put the api project after the journeys had ended, with one
 * slot idle meanwhile.
 */
class SlotOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      switch (spec.project.name) {
        case "e2e":
          return spec.moduleId.endsWith("web.e2e.test.ts") ? 0 : 2;
        case "api":
          return 1;
        default:
          return 3;
      }
    };
    // Array.prototype.sort is stable: within a rank, vitest's order stands.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * One vitest run covers every Worker: each has its own project config (its own workerd, bindings and
 * migrations), and CI reads the combined tally.
 */
export default defineConfig({
  test: {
    sequence: { sequencer: SlotOrder },
    // Projects named by path do not inherit options from here, so each sets `maxWorkers: 3` itself
    // (the same value everywhere: vitest runs every project's files in one pool). vitest's default is
    // cores - 1, one file at a time on a 2-core machine; the tests spend much of their time waiting on
    // workerd and on the browser (separate processes), and with the journeys holding one slot, three
    // files at a time keep both cores busy (measured: 424 s with two, 365 s with three, same run order).
    projects: [
      "./test/vitest.config.ts",
      "./test/e2e/vitest.config.ts",
      "./test/scripts/vitest.config.mjs",
      "./web/vitest.config.ts",
      "./workers/*/vitest.config.ts",
    ],
  },
});
