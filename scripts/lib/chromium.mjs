import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Where scripts/setup-chromium.sh puts its wrapper: miniflare launches Chrome from this exact path. */
export const CHROME_WRAPPER = ".cache/.wrangler/chrome/linux-126.0.6478.182/chrome-linux64/chrome";

export const ENABLE_CHROMIUM = "apt-get install -y chromium && bash scripts/setup-chromium.sh";

const executable = (file) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const onPath = (name) =>
  (process.env.PATH ?? "").split(delimiter).some((dir) => dir && executable(join(dir, name)));

/**
 * Whether the browser tests can run here: Debian's `chromium` on PATH (the Swagger test runs it) and
 * the wrapper miniflare launches for Browser Rendering (letter PDFs), still pointing at a Chromium
 * that exists. Only files are checked: launching Chromium to ask would cost a second per test run.
 * `WARGA_SKIP_CHROMIUM=1`, the switch that makes `npm install` leave Chromium alone, also reports it
 * missing here, so the suite behaves as on a machine without it.
 *
 * @param {string} root the project folder, ending with a slash
 * @returns {{ ready: true } | { ready: false, reason: string }}
 */
export function chromiumStatus(root) {
  if (process.env.WARGA_SKIP_CHROMIUM === "1") {
    return { ready: false, reason: "WARGA_SKIP_CHROMIUM=1 is set" };
  }
  if (!onPath("chromium")) {
    return { ready: false, reason: `Chromium not installed: run \`${ENABLE_CHROMIUM}\`` };
  }
  const wrapper = `${root}${CHROME_WRAPPER}`;
  if (!executable(wrapper)) {
    return {
      ready: false,
      reason: "Chromium's wrapper for miniflare is missing: run `bash scripts/setup-chromium.sh`",
    };
  }
  const target = /exec "([^"]+)"/.exec(readFileSync(wrapper, "utf8"))?.[1];
  if (!target || !existsSync(target)) {
    return {
      ready: false,
      reason: `the wrapper points at a Chromium that is gone (${target ?? "unknown"}): run \`${ENABLE_CHROMIUM}\``,
    };
  }
  return { ready: true };
}
