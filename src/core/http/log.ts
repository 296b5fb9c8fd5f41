type Level = "debug" | "info" | "warn" | "error";
const RANK: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Set once per isolate from the checked configuration (`LOG_LEVEL`); tests run at `warn`. */
let threshold: Level = "info";
export function setLogLevel(level: Level): void {
  threshold = level;
}

/** One JSON object per line, so Workers Logs can index the fields. Never log secrets or NIKs. */
export function log(level: Level, event: string, fields: Record<string, unknown> = {}): void {
  if (RANK[level] < RANK[threshold]) {
    return;
  }
  const line = JSON.stringify({ level, event, time: new Date().toISOString(), ...fields });
  if (level === "error") {
    console.error(line);
  } else if (level === "warn") {
    console.warn(line);
  } else {
    console.log(line);
  }
}
