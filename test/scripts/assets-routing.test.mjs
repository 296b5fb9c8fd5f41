import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";

const root = new URL("../../", import.meta.url);
const { assets } = parse(readFileSync(new URL("wrangler.toml", root), "utf8"));

/** Workers static assets' `run_worker_first` rule: `/x/*` matches below /x/, anything else exactly. */
function workerFirst(path) {
  const patterns = assets.run_worker_first;
  const matches = (p) => (p.endsWith("/*") ? path.startsWith(p.slice(0, -1)) : path === p);
  return (
    patterns.some((p) => !p.startsWith("!") && matches(p)) &&
    !patterns.some((p) => p.startsWith("!") && matches(p.slice(1)))
  );
}

/** A path a request could have for a route pattern: each `:param` and `*` filled in. */
const sample = (pattern) => pattern.replace(/:[A-Za-z_]+/g, "x").replace(/\*/g, "x");

describe("static assets and the Worker share the origin (ADR 0041)", () => {
  it("sends every path the Worker routes to the Worker: a new route outside the list fails here", () => {
    const routed = buildApp()
      .routes.filter((r) => r.method !== "ALL")
      .map((r) => r.path);
    expect(routed.length).toBeGreaterThan(100);
    const missed = [...new Set(routed.map(sample))].filter((path) => !workerFirst(path));
    expect(missed).toEqual([]);
    // The document is served by a middleware, not a route.
    expect(workerFirst("/openapi.json")).toBe(true);
  });

  it("leaves the app's own paths, and unknown ones, to the assets with the app's index.html as fallback", () => {
    expect(assets.not_found_handling).toBe("single-page-application");
    for (const path of [
      "/",
      "/login",
      "/login/link",
      "/join",
      "/auth/magic-link",
      "/auth/callback",
      "/forgot-password",
      "/reset-password",
      "/daftar/rt-01-sukamaju",
      "/communities",
      "/tidak-ada",
    ]) {
      expect(workerFirst(path), path).toBe(false);
    }
  });
});
