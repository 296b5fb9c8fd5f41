import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order the two slots take files in (vitest's own order is longest-last-time first, else largest
 * first, which on a fresh clone, with no timings cached, put the small projects last: each then started
 * its own runtime with nothing else running, a minute and more of one idle core at the end):
 * 1. the web app's browser journeys (minutes in one file, mostly waiting on the browser), so they run
 *    beside everything else;
 * 2. the other end-to-end file and the small projects (web, scripts, notify, ticket-mail), whose
 *    start-ups overlap the journeys;
 * 3. the api project, largest first, so the last files to finish are short ones.
 */
class SlotOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      if (spec.project.name === "e2e") {
        return spec.moduleId.endsWith("web.e2e.test.ts") ? 0 : 1;
      }
      return spec.project.name === "api" ? 3 : 2;
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
