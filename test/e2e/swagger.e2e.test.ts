import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
// @ts-expect-error: a plain .mjs helper shared with the benchmark scripts.
import { startDevServer } from "../../scripts/lib/dev-server.mjs";

const run = promisify(execFile);
const chromium = inject("chromium");
let server: { url: string; stop: () => Promise<void> };

beforeAll(async () => {
  // Starting wrangler dev is the slow part; there is no point without a browser to drive against it.
  if (chromium.ready) {
    server = await startDevServer();
  }
});
afterAll(async () => {
  await server?.stop();
});

describe("/swagger in a browser with no internet access", () => {
  it("renders every documented operation from the Worker's own assets", async (t) => {
    t.skip(!chromium.ready, chromium.reason);
    // Known regression, open: since the merge of issues 13–20 (203 operations) Swagger UI renders the
    // Health tag and two Auth operations, then nothing more, with no console error and whatever the
    // time budget. /openapi.json itself is checked by test/core/openapi.test.ts and the schema fuzz.
    t.skip(true, "Swagger UI stops rendering after /api/auth/refresh with the 203-operation spec (open)");
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, object>;
    };
    const profile = mkdtempSync(join(tmpdir(), "warga-chromium-"));
    // Every host but loopback resolves nowhere, so a CDN script could not load even if asked for.
    const { stdout } = await run(
      "chromium",
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        `--user-data-dir=${profile}`,
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--virtual-time-budget=60000",
        "--dump-dom",
        `${server.url}/swagger`,
      ],
      { maxBuffer: 32 * 1024 * 1024, timeout: 90_000 },
    );
    const rendered = [...stdout.matchAll(/data-path="([^"]+)"/g)].map((m) => m[1]);
    expect(rendered.length).toBeGreaterThan(0);
    for (const path of Object.keys(spec.paths)) {
      expect(rendered, `operation ${path} rendered`).toContain(path);
    }
    expect(stdout).toContain("Warga API");
  });
});
