type Level = "info" | "warn" | "error";

// One JSON object per line for Workers Logs. Never pass message bodies, subjects or tokens.
export function log(level: Level, event: string, fields: Record<string, unknown> = {}): void {
  const entry = { level, event, service: "warga-ticket-mail", ...fields };
  if (level === "error") {
    console.error(entry);
  } else if (level === "warn") {
    console.warn(entry);
  } else {
    console.log(entry);
  }
}
