// Renders the app's PNG icons from their SVG sources with the machine's Chromium (playwright-core, the
// browser the tests already use), so the committed PNGs can be made again byte for byte from the SVGs:
//   node scripts/make-icons.mjs
// Sources: web/public/icons/icon.svg (rounded, "any") and maskable.svg (full bleed, the house inside the
// maskable safe zone, a circle of 80 % of the width). Output beside them; run after changing either SVG.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { root } from "./lib/dev-server.mjs";

const icons = join(root, "web", "public", "icons");
const renders = [
  { svg: "icon.svg", png: "icon-192.png", size: 192 },
  { svg: "icon.svg", png: "icon-512.png", size: 512 },
  { svg: "maskable.svg", png: "maskable-192.png", size: 192 },
  { svg: "maskable.svg", png: "maskable-512.png", size: 512 },
  // iOS's home screen icon: full bleed, iOS rounds the corners itself.
  { svg: "maskable.svg", png: "apple-touch-icon.png", size: 180 },
];

const browser = await chromium.launch({
  executablePath: execFileSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).trim(),
  args: ["--no-sandbox"],
});
try {
  for (const { svg, png, size } of renders) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const source = readFileSync(join(icons, svg), "utf8");
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${source}`,
    );
    await page.screenshot({ path: join(icons, png), omitBackground: true });
    await page.close();
    console.log(`web/public/icons/${png} (${size} × ${size})`);
  }
} finally {
  await browser.close();
}
