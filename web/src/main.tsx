import { render } from "preact";
import { App } from "./app";
import { initLanguage } from "./i18n";
import { registerServiceWorker } from "./pwa/offline";
import { restore } from "./session";
import "./styles.css";

// The language before the first paint; the session in parallel (screens show their placeholder meanwhile).
void restore();
await initLanguage();
render(<App />, document.getElementById("app") as HTMLElement);
registerServiceWorker();
