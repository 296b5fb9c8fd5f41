import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startWebApp, type WebApp } from "./web/harness";
import { authJourneys } from "./web/journeys/auth";
import { communityJourneys } from "./web/journeys/community";
import { gateJourneys } from "./web/journeys/gate";
import { lettersJourneys } from "./web/journeys/letters";
import { offlineJourneys } from "./web/journeys/offline";
import { residentJourneys } from "./web/journeys/resident";
import { shellJourneys } from "./web/journeys/shell";
import { swaggerJourneys } from "./web/journeys/swagger";

/**
 * The web app in a real Chromium against the real local API with the demo data (ADR 0041): the journeys
 * a person makes (test/e2e/web/journeys/, one module per area), an axe-core check of each screen, and
 * screenshots for the README. One server and one browser for all of them (test/e2e/web/harness.ts);
 * each journey has its own browser profile and, where it changes data, its own demo account.
 * `npx vitest run --project e2e test/e2e/web.e2e.test.ts -t <words of a journey's name>` runs some.
 */
const journeys = [
  ...shellJourneys,
  ...lettersJourneys,
  ...communityJourneys,
  ...authJourneys,
  ...offlineJourneys,
  ...gateJourneys,
  ...residentJourneys,
  ...swaggerJourneys,
];

const chromium = inject("chromium");
// The app's build, the bundle, workerd's start, migrations and seed: about half a minute on a quiet
// 2-core machine; the margin is for one shared with other test files.
const SETUP_MS = 300_000;
const JOURNEY_MS = 240_000;

let app: WebApp | undefined;
let unavailable: string | undefined = chromium.ready ? undefined : chromium.reason;
let endJourney = async (): Promise<string[]> => [];
let stop = async () => {};

beforeAll(async () => {
  if (unavailable) {
    return;
  }
  const started = await startWebApp(true);
  stop = started.stop;
  endJourney = started.endJourney;
  app = started.app;
  unavailable ??= started.unavailable;
}, SETUP_MS);

afterAll(() => stop());

describe("the web app in a browser", () => {
  for (const journey of journeys) {
    it(
      journey.name,
      async (t) => {
        t.skip(unavailable !== undefined, unavailable);
        let errors: string[];
        try {
          await journey.run(app as WebApp);
        } finally {
          errors = await endJourney();
        }
        expect(errors, "uncaught errors in the app's pages").toEqual([]);
      },
      JOURNEY_MS,
    );
  }
});
