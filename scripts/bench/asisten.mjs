// `npm run bench -- asisten`: how many of the realistic everyday questions in
// test/fixtures/asisten/questions.json the built-in assistant answers correctly (issue 45: ≥ 90%). The
// built-in mode is deterministic and reads only its tools, so the questions run in this process over
// fixed records (test/fixtures/asisten/score.ts, loaded through Vite's module runner): no server, and
// the figure is a ratio, not a time.
import { join } from "node:path";
import { runnerImport } from "vite";
import { root } from "../lib/dev-server.mjs";
import { absoluteNote } from "./floors.mjs";

export async function run() {
  const { module } = await runnerImport(join(root, "test", "fixtures", "asisten", "score.ts"), {
    configFile: false,
    logLevel: "silent",
  });
  const result = await module.score();
  const multiTurn = module.loadCases().filter((c) => c.ask.length > 1).length;
  console.log(`\nasisten (built-in mode): ${result.total} questions, ${multiTurn} of them follow-ups`);
  for (const failure of result.failures) {
    console.log(`  wrong: ${failure.name}: ${failure.why}`);
  }
  const met = result.ratio >= module.GOAL;
  console.log(
    `answered correctly: ${result.correct}/${result.total} = ${(result.ratio * 100).toFixed(1)}% ` +
      `(goal ≥ ${module.GOAL * 100}%): ${met ? "met" : "NOT met"}`,
  );
  console.log(absoluteNote("a share of correct answers"));
}
