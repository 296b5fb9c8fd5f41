import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Journey, type JourneyScope, startWebApp } from "./harness";

/**
 * Runs browser journeys against one server and one Chromium (harness.ts): test/e2e/web.browser.test.ts (the
 * resident's and the guard's app) and test/e2e/console.browser.test.ts (the committee's console), both
 * run by `npm run test:browser`. `chains` holds one list per area module.
 *
 * Two journeys at a time (the project's `maxConcurrency`): a journey mostly waits on the browser and
 * the server, so two side by side take little more than one. Each module's journeys stay in order, one
 * after another (they share demo accounts, and one signs its account out everywhere); modules are
 * interleaved, so the pair running is usually from two modules, which use different accounts.
 */
export function runJourneys(title: string, chains: Journey[][]): void {
  // `place`: how many of its module's journeys run before it (each waits for those: see below).
  const journeys = Array.from({ length: Math.max(...chains.map((c) => c.length)) }, (_, i) =>
    chains.flatMap((chain, module) => (chain[i] ? [{ journey: chain[i], module, place: i }] : [])),
  ).flat();

  const chromium = inject("chromium");
  // The app's build, the bundle, workerd's start, migrations and seed: about half a minute on a quiet
  // 2-core machine; the margin is for one shared with other test files.
  const SETUP_MS = 300_000;
  const JOURNEY_MS = 240_000;

  let journey: (() => JourneyScope) | undefined;
  let unavailable: string | undefined = chromium.ready ? undefined : chromium.reason;
  let stop = async () => {};

  beforeAll(async () => {
    if (unavailable) {
      return;
    }
    const started = await startWebApp(true);
    stop = started.stop;
    journey = started.journey;
    unavailable ??= started.unavailable;
  }, SETUP_MS);

  afterAll(() => stop());

  describe.concurrent(title, () => {
    // Each module's turn: a journey waits for the one of its module that started before it (taken when
    // the journey starts, so one left out by `-t` holds nothing up).
    const turns = new Map<number, Promise<void>>();
    for (const { journey: j, module, place } of journeys) {
      it(
        j.name,
        async (t) => {
          const before = turns.get(module);
          let done = () => {};
          turns.set(module, new Promise<void>((resolve) => (done = resolve)));
          try {
            await before;
            t.skip(unavailable !== undefined, unavailable);
            const scope = (journey as () => JourneyScope)();
            let errors: string[];
            try {
              await j.run(scope.app);
            } finally {
              errors = await scope.end();
            }
            expect(errors, "uncaught errors in the app's pages").toEqual([]);
          } finally {
            done();
          }
        },
        // Its own time and that of the journeys of its module it waits for: vitest's clock starts when
        // the test does, before the wait.
        JOURNEY_MS * (place + 1),
      );
    }
  });
}
