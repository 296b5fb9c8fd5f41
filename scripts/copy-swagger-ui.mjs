// Copies the Swagger UI files the /swagger page needs into the Worker's static assets.
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const dist = dirname(require.resolve("swagger-ui-dist/package.json"));
const out = join(root, "public", "swagger-ui");
mkdirSync(out, { recursive: true });
for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"]) {
  copyFileSync(join(dist, file), join(out, file));
}
// An external file, not an inline script: the CSP allows scripts from 'self' only. `filter` adds a box
// that narrows the list by tag: past 150 tags plus operations Swagger UI keeps only the rows near the
// viewport in the page, so the browser's find (Ctrl+F) no longer sees the whole list.
writeFileSync(
  join(out, "init.js"),
  `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true, filter: true });\n`,
);
console.log(`swagger-ui assets copied to ${out}`);
