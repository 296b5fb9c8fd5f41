import { authJourneys } from "./web/journeys/auth";
import { communityJourneys } from "./web/journeys/community";
import { gateJourneys } from "./web/journeys/gate";
import { lettersJourneys } from "./web/journeys/letters";
import { offlineJourneys } from "./web/journeys/offline";
import { residentJourneys } from "./web/journeys/resident";
import { shellJourneys } from "./web/journeys/shell";
import { swaggerJourneys } from "./web/journeys/swagger";
import { runJourneys } from "./web/run";

/**
 * The web app in a real Chromium against the real local API with the demo data (ADR 0041): the journeys
 * a person makes (test/e2e/web/journeys/, one module per area), an axe-core check of each screen, and
 * screenshots for the README. One server and one browser for all of them (test/e2e/web/harness.ts);
 * each journey has its own browser profile and, where it changes data, its own demo account.
 * `npm run test:browser -- test/e2e/web.browser.test.ts -t <words of a journey's name>` runs some.
 * Apart from `npm test`, with the committee's console (console.browser.test.ts): `npm run test:browser`.
 */
runJourneys("the web app in a browser", [
  shellJourneys,
  lettersJourneys,
  communityJourneys,
  authJourneys,
  offlineJourneys,
  gateJourneys,
  residentJourneys,
  swaggerJourneys,
]);
