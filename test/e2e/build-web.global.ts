// @ts-expect-error: a plain .mjs script shared with `npm run dev` and the deploy.
import { buildWeb } from "../../scripts/build-web.mjs";

/**
 * The web app built once for the whole browser run, before any file starts: the journey files run side by
 * side, and each building it on its own emptied public/ under the other's build (a run failed with
 * `ENOENT … public/icons`). Files started after this see `WARGA_WEB_BUILT` and build nothing.
 */
export default async function setup(): Promise<void> {
  await buildWeb();
  process.env.WARGA_WEB_BUILT = "1";
}
