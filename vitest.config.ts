import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order the slots take files in. vitest queues every project's files in one pool and hands the next
 * file to the first free slot; a runtime shared across files (`isolate: false`: the api, notify,
 * ticket-mail and scripts projects) is kept only while the next file queued is of its own project, and
 * starting one again costs seconds (most of a minute for the api's). So each project's files stay
 * together: the small projects first, then the api project, largest first. A slot that is done with the
 * small projects' few long files (the client check, a runtime's cold start) takes api files at once,
 * where with the api project first the small projects formed a tail at the end with slots idle. The
 * browser journeys are not here: they run apart (`npm run test:browser`, test/e2e/browser.vitest.config.ts).
 * Measured on fresh clones (vitest's Duration, quiet): 437 s with the journeys in this run; 403 s without
 * them, api first (a 108 s tail); 309 s in this order.
 */
class SlotOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => (spec.project.name === "api" ? 1 : 0);
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
    // workerd (a separate process), so three files at a time keep both cores busy (measured when the
    // browser journeys were part of this run: 424 s with two, 365 s with three, same run order).
    projects: [
      "./test/vitest.config.ts",
      "./test/e2e/vitest.config.ts",
      "./test/scripts/vitest.config.mjs",
      "./web/vitest.config.ts",
      "./workers/*/vitest.config.ts",
    ],
  },
});
