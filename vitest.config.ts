import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The browser journeys first. The pool runs two files at a time in the order given, and vitest's order
 * (longest last time, else largest file) would put the small e2e files last on a fresh clone, where no
 * timings are cached: the web app's journeys (minutes, one file) would then run alone at the end. Started
 * first, they run beside everything else.
 */
class JourneysFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const e2e = (spec: TestSpecification) => spec.project.name === "e2e";
    return [...sorted.filter(e2e), ...sorted.filter((spec) => !e2e(spec))];
  }
}

/**
 * One vitest run covers every Worker: each has its own project config (its own workerd, bindings and
 * migrations), and CI reads the combined tally.
 */
export default defineConfig({
  test: {
    sequence: { sequencer: JourneysFirst },
    // Projects named by path do not inherit options from here, so each sets `maxWorkers: 2` itself
    // (the same value everywhere: vitest runs every project's files in one pool). vitest's default is
    // cores - 1, one file at a time on a 2-core machine; the tests spend much of their time waiting on
    // workerd (a separate process), so two files at a time keep both cores busy.
    projects: [
      "./test/vitest.config.ts",
      "./test/e2e/vitest.config.ts",
      "./test/scripts/vitest.config.mjs",
      "./web/vitest.config.ts",
      "./workers/*/vitest.config.ts",
    ],
  },
});
