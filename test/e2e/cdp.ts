import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A headless Chromium driven over the DevTools protocol, for tests that must act like a reader
 * (scroll, follow a link) rather than dump the first screen: Swagger UI virtualises long lists, so
 * a page's DOM holds only what is near the viewport. Needs Node 22's global WebSocket (npm scripts
 * and npx run the project's pinned Node 22).
 */
export interface Browser {
  /** Loads `url` in a fresh document (via about:blank, so a changed #hash is a real page load), until its load event. */
  open(url: string): Promise<void>;
  /** Evaluates an expression in the page, awaiting a returned promise; the value comes back as JSON. */
  evaluate<T>(expression: string): Promise<T>;
  /** Resolves once `expression` is truthy in the page (re-checked on DOM changes and scrolls). */
  waitFor(expression: string): Promise<void>;
  /** Focuses the element `selector` matches and types `text` into it, as a keyboard would. */
  type(selector: string, text: string): Promise<void>;
  /** Uncaught exceptions and console.error calls seen in the page since the last `open`. */
  errors: string[];
  close(): Promise<void>;
}

interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/**
 * The port Chromium's DevTools listens on, from the line it prints on stderr once it listens
 * ("DevTools listening on ws://127.0.0.1:PORT/devtools/browser/…"); fails if it exits first.
 */
function devToolsPort(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
      if (match?.[1]) {
        child.off("exit", onExit);
        // Keep reading (and dropping) what it prints, so a full pipe never blocks the browser.
        child.stderr?.off("data", onData).resume();
        resolve(match[1]);
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`chromium exited with ${code} before it listened: ${seen.slice(-500)}`));
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
  });
}

export async function launchBrowser(viewport = { width: 1280, height: 1000 }): Promise<Browser> {
  if (typeof WebSocket === "undefined") {
    throw new Error(`the browser tests need Node 22 (global WebSocket); this is ${process.version}`);
  }
  const profile = mkdtempSync(join(tmpdir(), "warga-chromium-"));
  const child = spawn(
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
      `--window-size=${viewport.width},${viewport.height}`,
      // Every host but loopback resolves nowhere, so a CDN script could not load even if asked for.
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      "about:blank",
    ],
    // Its own process group, so closing ends the zygote and renderers too, not only the browser;
    // stderr piped for the line that names the DevTools port.
    { stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid ?? 0), signal);
    } catch {
      // The group is gone already.
    }
  };
  try {
    const port = await devToolsPort(child);
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      type: string;
      webSocketDebuggerUrl: string;
    }[];
    const target = targets.find((t) => t.type === "page");
    if (!target) {
      throw new Error("chromium has no page target");
    }
    const socket = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error("could not connect to chromium's DevTools socket"));
    });
    let nextId = 0;
    const pending = new Map<number, (msg: CdpMessage) => void>();
    const awaited = new Map<string, () => void>();
    const errors: string[] = [];
    socket.onmessage = (event) => {
      const msg = JSON.parse(String(event.data)) as CdpMessage;
      if (msg.id !== undefined) {
        pending.get(msg.id)?.(msg);
        pending.delete(msg.id);
      } else if (msg.method && awaited.has(msg.method)) {
        awaited.get(msg.method)?.();
        awaited.delete(msg.method);
      }
      if (msg.method === "Runtime.exceptionThrown") {
        const details = msg.params?.exceptionDetails as {
          text: string;
          exception?: { description?: string };
        };
        errors.push(details.exception?.description ?? details.text);
      } else if (msg.method === "Runtime.consoleAPICalled" && msg.params?.type === "error") {
        const args = (msg.params.args ?? []) as { value?: unknown; description?: string }[];
        errors.push(args.map((a) => String(a.value ?? a.description)).join(" "));
      }
    };
    const send = (method: string, params: Record<string, unknown> = {}) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const id = ++nextId;
        pending.set(id, (msg) =>
          msg.error ? reject(new Error(msg.error.message)) : resolve(msg.result ?? {}),
        );
        socket.send(JSON.stringify({ id, method, params }));
      });
    await send("Runtime.enable");
    await send("Page.enable");

    const evaluate = async <T>(expression: string): Promise<T> => {
      const result = (await send("Runtime.evaluate", {
        expression,
        awaitPromise: true,
        returnByValue: true,
      })) as {
        result: { value?: T };
        exceptionDetails?: { text: string; exception?: { description?: string } };
      };
      if (result.exceptionDetails) {
        const { text, exception } = result.exceptionDetails;
        throw new Error(`in the page: ${exception?.description ?? text} (evaluating ${expression})`);
      }
      return result.result.value as T;
    };
    /** The next event named `method` (register before the command that causes it). */
    const next = (method: string) => new Promise<void>((resolve) => awaited.set(method, resolve));
    /**
     * Resolves in the page when `expression` turns truthy: checked now, then on every DOM change and
     * scroll (a MutationObserver and a scroll listener), so nothing polls.
     */
    const waitFor = async (expression: string) => {
      await evaluate(`new Promise((resolve) => {
        const holds = () => { try { return Boolean(${expression}); } catch { return false; } };
        if (holds()) return resolve(true);
        const check = () => {
          if (holds()) {
            observer.disconnect();
            removeEventListener("scroll", check, true);
            resolve(true);
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        addEventListener("scroll", check, true);
      })`);
    };
    return {
      errors,
      evaluate,
      waitFor,
      async open(url) {
        let loaded = next("Page.loadEventFired");
        await send("Page.navigate", { url: "about:blank" });
        await loaded;
        errors.length = 0;
        loaded = next("Page.loadEventFired");
        await send("Page.navigate", { url });
        await loaded;
      },
      async type(selector, text) {
        await evaluate(`document.querySelector(${JSON.stringify(selector)}).focus()`);
        await send("Input.insertText", { text });
      },
      async close() {
        socket.close();
        killGroup("SIGTERM");
        await new Promise((resolve) =>
          child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once("exit", resolve),
        );
        killGroup("SIGKILL");
        // A helper that outlived the group can still be writing the profile for a moment; a temporary
        // directory left behind is not the test's failure.
        try {
          rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
        } catch (error) {
          console.warn(`could not remove the browser profile ${profile}: ${error}`);
        }
      },
    };
  } catch (err) {
    killGroup("SIGKILL");
    throw err;
  }
}
