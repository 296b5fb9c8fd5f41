type Level = "debug" | "info" | "warn" | "error";
const RANK: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Set once per isolate from the checked configuration (`LOG_LEVEL`); tests run at `warn`. */
let threshold: Level = "info";
export function setLogLevel(level: Level): void {
  threshold = level;
}

/**
 * Secrets never reach the logs, even by mistake: configured secret values (registered by loadConfig)
 * are replaced wherever they appear, and so are shapes that are secret whatever their value: bearer
 * credentials, JWTs, private key blocks and `token=…`-style pairs.
 */
const SECRET_SHAPES: [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, "[redacted private key]"],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, "$1 [redacted]"],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, "[redacted jwt]"],
  [
    /((?:api[_-]?key|access[_-]?token|refresh[_-]?token|token|secret|password|authorization|private[_-]?key|x-service-internal-key)\\?["']?\s*[:=]\s*\\?["']?)(?![[{]redacted)[^"'\\\s,&}]+/gi,
    "$1[redacted]",
  ],
];
const secretValues = new Set<string>();
/**
 * Every secret shape above needs one of these words (case aside), so a line without any (most access
 * lines) skips the four replacements: one scan instead of four.
 */
const MAY_HOLD_SECRET_SHAPE = /key|token|secret|password|authorization|bearer|basic|eyj/i;

/** Remembers secret values to redact (under 8 characters they would redact ordinary words). */
export function rememberLogSecrets(values: readonly unknown[]): void {
  for (const value of values) {
    if (typeof value === "string" && value.length >= 8) {
      secretValues.add(value);
    }
  }
}

export function redact(text: string): string {
  let out = text;
  for (const secret of secretValues) {
    if (out.includes(secret)) {
      out = out.split(secret).join("[redacted]");
    }
  }
  if (!MAY_HOLD_SECRET_SHAPE.test(out)) {
    return out;
  }
  for (const [pattern, replacement] of SECRET_SHAPES) {
    out = out.replace(pattern, replacement);
  }
  return out;
}

/** workerd's clock stands still while a request computes: one ISO string per millisecond is enough. */
let lastMs = Number.NaN;
let lastIso = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/** One JSON object per line, so Workers Logs can index the fields. Never log secrets or NIKs. */
export function log(level: Level, event: string, fields: Record<string, unknown> = {}): void {
  if (RANK[level] < RANK[threshold]) {
    return;
  }
  const line = redact(JSON.stringify({ level, event, time: isoNow(), ...fields }));
  if (level === "error") {
    console.error(line);
  } else if (level === "warn") {
    console.warn(line);
  } else {
    console.log(line);
  }
}
