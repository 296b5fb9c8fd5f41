import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const web = fileURLToPath(new URL(".", import.meta.url));

/**
 * The app is built straight into the API Worker's static assets (public/, beside swagger-ui/, which
 * scripts/build-web.mjs leaves alone): hashed files under /app/, index.html and web/public/'s files at
 * the root. Screens are separate chunks (lazy routes), so the first screen loads only the shell.
 */
export default defineConfig({
  root: web,
  publicDir: `${web}public`,
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: `${web}../public`,
    emptyOutDir: false,
    assetsDir: "app",
    target: "es2022",
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
