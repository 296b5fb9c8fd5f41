import { communityJourneys } from "./console/journeys/community";
import { deskJourneys } from "./console/journeys/desk";
import { financeJourneys } from "./console/journeys/finance";
import { operatorJourneys } from "./console/journeys/operator";
import { operatorOpsJourneys } from "./console/journeys/operator-ops";
import { peopleJourneys } from "./console/journeys/people";
import { registryJourneys } from "./console/journeys/registry";
import { consoleShellJourneys } from "./console/journeys/shell";
import { runJourneys } from "./web/run";

/**
 * The committee's console (issue 46) in a real Chromium, on the same harness as the resident's app
 * (test/e2e/web/harness.ts): one module per section under test/e2e/console/journeys/. Its own file and
 * script (`npm run test:console`; `npm run test:browser` runs it with the web app's journeys, as .ci/run
 * does after `npm test`) so `npm test` stays within its time; `npm run test:console -- -t <words of a
 * journey's name>` runs some.
 */
runJourneys("the committee's console in a browser", [
  consoleShellJourneys,
  registryJourneys,
  financeJourneys,
  deskJourneys,
  peopleJourneys,
  communityJourneys,
  // The platform operator's console (issue 47), on the same foundation.
  operatorJourneys,
  operatorOpsJourneys,
]);
