import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A headless Chromium driven over the DevTools protocol, for tests that must act like a reader
 * (scroll, follow a link) rather than dump the first screen: Swagger UI virtualises long lists, so
 * a page's DOM holds only what is near the viewport. Needs Node 22's global WebSocket (npm scripts
 * and npx run the project's pinned Node 22).
 */
export interface Browser {
  /** Loads `url` in a fresh document (via about:blank, so a changed #hash is a real page load). */
  open(url: string): Promise<void>;
  /** Evaluates an expression in the page, awaiting a returned promise; the value comes back as JSON. */
  evaluate<T>(expression: string): Promise<T>;
  /** Polls `expression` until it is truthy, or fails after `timeoutMs`. */
  waitFor(expression: string, timeoutMs?: number): Promise<void>;
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function devToolsPort(profile: string, child: ChildProcess): Promise<string> {
  const file = join(profile, "DevToolsActivePort");
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) {
      throw new Error(`chromium exited with ${child.exitCode} before it listened`);
    }
    if (existsSync(file)) {
      const port = readFileSync(file, "utf8").split("\n")[0];
      if (port) {
        return port;
      }
    }
    await sleep(100);
  }
  throw new Error("chromium did not open its DevTools port within 30 s");
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
    // Its own process group, so closing ends the zygote and renderers too, not only the browser.
    { stdio: "ignore", detached: true },
  );
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid ?? 0), signal);
    } catch {
      // The group is gone already.
    }
  };
  try {
    const port = await devToolsPort(profile, child);
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
    const errors: string[] = [];
    socket.onmessage = (event) => {
      const msg = JSON.parse(String(event.data)) as CdpMessage;
      if (msg.id !== undefined) {
        pending.get(msg.id)?.(msg);
        pending.delete(msg.id);
      } else if (msg.method === "Runtime.exceptionThrown") {
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
    const waitFor = async (expression: string, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      let last: unknown;
      while (Date.now() < deadline) {
        // Evaluating while the page navigates can fail (its context is replaced): try again.
        const ok = await evaluate<boolean>(`Boolean(${expression})`).catch((err: unknown) => {
          last = err;
          return false;
        });
        if (ok) {
          return;
        }
        await sleep(200);
      }
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}${last ? ` (${last})` : ""}`);
    };
    return {
      errors,
      evaluate,
      waitFor,
      async open(url) {
        await send("Page.navigate", { url: "about:blank" });
        errors.length = 0;
        await send("Page.navigate", { url });
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
