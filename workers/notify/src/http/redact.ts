/**
 * Secrets never reach the logs: every console line this Worker writes (its own, and anything a
 * library prints) passes through `redact`. Known secret values (the internal key, provider tokens) are
 * replaced wherever they appear; so are shapes that are secret whatever their value: bearer
 * credentials, JWTs, private key blocks, `token=…`-style pairs, and push device tokens in paths.
 */
const PATTERNS: [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, "[redacted private key]"],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, "$1 [redacted]"],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, "[redacted jwt]"],
  [
    /((?:api[_-]?key|access[_-]?token|token|secret|password|authorization|private[_-]?key|x-service-internal-key)["']?\s*[:=]\s*["']?)(?![[{]redacted)[^"'\s,&}]+/gi,
    "$1[redacted]",
  ],
  [/(\/v1\/devices\/)[^/?\s"]+/g, "$1[redacted]"],
];

const known = new Set<string>();

/** Remembers secret values to redact (short values are skipped: they would redact ordinary words). */
export function rememberSecrets(values: readonly (string | undefined)[]): void {
  for (const value of values) {
    if (value && value.length >= 8) {
      known.add(value);
    }
  }
}

export function redact(text: string): string {
  let out = text;
  for (const secret of known) {
    if (out.includes(secret)) {
      out = out.split(secret).join("[redacted]");
    }
  }
  for (const [pattern, replacement] of PATTERNS) {
    out = out.replace(pattern, replacement);
  }
  return out;
}

function show(arg: unknown): unknown {
  if (typeof arg === "string") {
    return redact(arg);
  }
  if (arg instanceof Error) {
    return redact(arg.stack ?? `${arg.name}: ${arg.message}`);
  }
  if (arg !== null && typeof arg === "object") {
    try {
      return redact(JSON.stringify(arg));
    } catch {
      return "[unserialisable]";
    }
  }
  return arg;
}

let installed = false;

/** Wraps the console once per isolate so every line is redacted. */
export function installLogRedaction(): void {
  if (installed) {
    return;
  }
  installed = true;
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => original(...args.map(show));
  }
}
