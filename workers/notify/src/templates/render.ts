// A deliberately small template language: `{{ name }}` or `{{ a.b }}`, nothing else. Templates are edited
// over the API, so no logic, loops or raw output: every value in the HTML part is escaped, which keeps a
// resident's name or a ticket message from ever becoming markup.

export type TemplateData = Record<string, unknown>;

export interface TemplateParts {
  subject: string;
  html: string;
  text: string;
}

const placeholder = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;

export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

function lookup(data: TemplateData, path: string): unknown {
  let current: unknown = data;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) {
    return "";
  }
  if (typeof value === "string") {
    return value;
  }
  if (typeof value === "number" || typeof value === "boolean") {
    return String(value);
  }
  return JSON.stringify(value);
}

// Escaping alone does not stop `javascript:` in an href, so link-like variables must be http(s).
function isLinkVariable(path: string): boolean {
  return /(url|link)$/i.test(path);
}

function safeLink(value: string): string {
  return /^https?:\/\//i.test(value.trim()) ? value.trim() : "#";
}

export function placeholdersOf(source: string): string[] {
  return [...new Set([...source.matchAll(placeholder)].map((m) => m[1] ?? ""))];
}

export function renderHtml(source: string, data: TemplateData): string {
  return source.replace(placeholder, (_, path: string) => {
    const raw = asText(lookup(data, path));
    const value = isLinkVariable(path) ? safeLink(raw) : raw;
    return escapeHtml(value).replaceAll("\r\n", "\n").replaceAll("\n", "<br>");
  });
}

export function renderText(source: string, data: TemplateData): string {
  return source.replace(placeholder, (_, path: string) => asText(lookup(data, path)));
}

// A subject is a header: a line break in a value would end it.
export function renderSubject(source: string, data: TemplateData): string {
  return renderText(source, data)
    .replace(/[\r\n]+/g, " ")
    .trim();
}

export function renderTemplate(parts: TemplateParts, data: TemplateData): TemplateParts {
  return {
    subject: renderSubject(parts.subject, data),
    html: renderHtml(parts.html, data),
    text: renderText(parts.text, data),
  };
}

export function missingVariables(required: readonly string[], data: TemplateData): string[] {
  return required.filter((name) => {
    const value = lookup(data, name);
    return value === undefined || value === null || value === "";
  });
}
