import { readFileSync } from "node:fs";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { buildApp } from "../../src/app.ts";

const root = new URL("../../", import.meta.url);

/**
 * Redocly CLI's `recommended` ruleset on /openapi.json as the app serves it (issue 30 item 5): 0 errors
 * and 0 warnings. Redocly's lint API runs in Node, not in workerd, so this builds the app in Node with
 * the `[vars]` of wrangler.toml and stand-in secrets (the document route touches no binding), and lints
 * offline: the document has no external references.
 */
async function servedDocument() {
  const { vars } = parse(readFileSync(new URL("wrangler.toml", root), "utf8"));
  const env = {
    ...vars,
    JWT_SECRET: "x".repeat(48),
    INTERNAL_API_KEY: "k".repeat(48),
    PASSWORD_PEPPER: "p".repeat(48),
    ARCHIVE_SIGNING_KEY: "a".repeat(48),
  };
  const res = await buildApp().fetch(new Request("http://api.test/openapi.json"), env);
  expect(res.status).toBe(200);
  return res.text();
}

describe("OpenAPI lint (Redocly recommended)", () => {
  it("finds no error and no warning in /openapi.json", async () => {
    const source = await servedDocument();
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source, absoluteRef: "openapi.json", config });
    // The accepted findings of .redocly.lint-ignore.yaml (each with its reason there), by rule and place.
    const ignore = parseYaml(readFileSync(new URL(".redocly.lint-ignore.yaml", root), "utf8"))[
      "openapi.json"
    ];
    const accepted = (p) => (ignore[p.ruleId] ?? []).includes(p.location[0]?.pointer);
    const found = problems
      .filter((p) => !accepted(p))
      .map((p) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer ?? ""}`);
    expect(found).toEqual([]);
  });
});
