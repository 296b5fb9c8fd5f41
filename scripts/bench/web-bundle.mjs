// `npm run bench -- web`: the web app's JavaScript per screen, gzip, from a fresh production build
// (issue 43: ≤ 70 KB for the first screen, ≤ 30 KB more for any further screen; issue 46: each section
// of the committee's console ≤ 40 KB beyond the shell, its frame included). Sizes, not times, so one
// build is the measurement. Then Lighthouse on that build (web-lighthouse.mjs).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildWeb, chunkClosure as closure, shellFiles } from "../build-web.mjs";
import { root } from "../lib/dev-server.mjs";
import { absoluteNote } from "./floors.mjs";
import { printLighthouse, runLighthouse } from "./web-lighthouse.mjs";

const FIRST_SCREEN_BUDGET = 70 * 1024;
const FURTHER_SCREEN_BUDGET = 30 * 1024;
const CONSOLE_SECTION_BUDGET = 40 * 1024;
const app = join(root, "public", "app");

const gzipped = (file) => gzipSync(readFileSync(join(app, file)), { level: 9 }).length;

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

export async function run() {
  await buildWeb();
  const html = readFileSync(join(root, "public", "index.html"), "utf8");
  const entry = /<script[^>]+src="\/app\/([\w.-]+\.js)"/.exec(html)?.[1];
  if (!entry) {
    throw new Error("public/index.html names no entry script");
  }
  const shell = closure(entry);
  const files = readdirSync(app).filter((f) => f.endsWith(".js"));
  // Screens are the chunks the entry loads lazily, one per screen or area (web/src/app.tsx's lazy()s).
  const lazyOf = (file) =>
    new Set(
      [
        ...readFileSync(join(app, file), "utf8").matchAll(
          /import\(`\.\/([\w.-]+\.js)`\)|import\("\.\/([\w.-]+\.js)"\)/g,
        ),
      ].map((m) => m[1] ?? m[2]),
    );
  const lazy = lazyOf(entry);
  const screens = files.filter((f) => lazy.has(f)).sort();
  const extra = (screen) => [...closure(screen)].filter((f) => !shell.has(f));
  const sum = (list) => list.reduce((total, f) => total + gzipped(f), 0);
  const shellBytes = sum([...shell]);

  const rows = [];
  const signIn = screens.find((f) => f.startsWith("SignIn-"));
  const first = shellBytes + (signIn ? sum(extra(signIn)) : 0);
  rows.push(["first screen: shell + sign-in", first, FIRST_SCREEN_BUDGET]);
  const name = (file) => file.replace(/-.*\.js$/, "");
  for (const screen of screens) {
    rows.push([`+ ${name(screen)}`, sum(extra(screen)), FURTHER_SCREEN_BUDGET]);
  }
  // The consoles' sections (the committee's, the operator's): chunks a frame loads lazily, each measured
  // with the frame it opens in.
  // (Only the consoles' frames: another screen's lazy chunk is a library it loads on demand, e.g. the
  // gate's QR decoder, not a section with a budget of its own.)
  for (const frame of screens.filter((f) => /^(console|operator)-/.test(f))) {
    const framed = new Set(extra(frame));
    for (const section of [...lazyOf(frame)].filter((f) => !lazy.has(f) && f !== frame).sort()) {
      const own = [...new Set([...framed, ...extra(section)])];
      rows.push([`+ ${name(frame)} › ${name(section)}`, sum(own), CONSOLE_SECTION_BUDGET]);
    }
  }
  console.log(`\nweb app JavaScript, gzip -9 (shell ${kb(shellBytes)} in ${shell.size} chunks)`);
  console.log(`${"what".padEnd(34)}${"size".padStart(10)}${"budget".padStart(10)}  goal`);
  for (const [what, bytes, budget] of rows) {
    console.log(
      `${what.padEnd(34)}${kb(bytes).padStart(10)}${kb(budget).padStart(10)}  ${bytes <= budget ? "met" : "NOT met"}`,
    );
  }
  // The service worker is no screen's JavaScript: the app installs it a few seconds after load.
  const worker = gzipSync(readFileSync(join(root, "public", "sw.js")), { level: 9 }).length;
  console.log(
    `service worker /sw.js ${kb(worker)} (installed a few seconds after load, outside the budgets; precaches ${shellFiles().length} files)`,
  );
  const over = rows.filter(([, bytes, budget]) => bytes > budget).length;
  console.log(`${rows.length - over} goals met, ${over} not met (${absoluteNote("gzip bytes")})`);
  printLighthouse(await runLighthouse());
}
