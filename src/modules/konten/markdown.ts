import MarkdownIt from "markdown-it";
import type { TenantCtx } from "../../core/context";
import { ownFileIdOf, requireOwnImages } from "../../platform/uploads";

/**
 * Markdown → HTML for news and announcements, rendered on the server once per write. markdown-it with
 * `html: false` escapes every raw HTML tag the author types (so no <script>, no onerror=), and the
 * only tags in the output are the ones markdown-it itself emits. Links pass an allow-list of schemes
 * (http, https, mailto, tel), so javascript:, data: and vbscript: URLs stay plain text. Images render
 * only from the community's own store (`${APP_URL}/api/files/:id`, checked for the tenant and refused
 * with 422 at write, `renderContent`); any other image is left as its alt text, so a third-party host
 * never learns who read the page. Links open with rel="noopener noreferrer nofollow ugc".
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });

const LINK_SCHEMES = /^(https?:|mailto:|tel:)/i;
/**
 * An allow-list, not a deny-list: anything with a colon is a scheme (or a disguised one, such as
 * "java\tscript:", which markdown-it has percent-encoded by now) and must be one we allow; without a
 * colon the link is relative and stays inside the app.
 */
function allowed(url: string): boolean {
  const trimmed = url.trim();
  if (!trimmed.includes(":")) {
    return true;
  }
  return LINK_SCHEMES.test(trimmed);
}

md.validateLink = (url) => allowed(url);

/** What `renderMarkdown` hands the rules: the API's own origin, which images must come from. */
const appUrlOf = (env: unknown): string | undefined => {
  const value = (env as { appUrl?: unknown } | undefined)?.appUrl;
  return typeof value === "string" ? value : undefined;
};

// markdown-it validates image and link targets with the same hook; images must be our own files.
const defaultImage = md.renderer.rules.image;
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const src = String(token?.attrGet("src") ?? "");
  const appUrl = appUrlOf(env);
  if (!token || !appUrl || !ownFileIdOf(appUrl, src)) {
    return md.utils.escapeHtml(String(token?.content ?? ""));
  }
  return defaultImage
    ? defaultImage(tokens, idx, options, env, self)
    : self.renderToken(tokens, idx, options);
};

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx]?.attrSet("rel", "noopener noreferrer nofollow ugc");
  return self.renderToken(tokens, idx, options);
};

export function renderMarkdown(source: string, appUrl: string): string {
  return md.render(source, { appUrl });
}

/** The target of every image in the text, as the renderer would see it (for the write-time check). */
export function imageSources(source: string): string[] {
  const sources: string[] = [];
  const walk = (tokens: ReturnType<typeof md.parse>) => {
    for (const token of tokens) {
      if (token.type === "image") {
        sources.push(String(token.attrGet("src") ?? ""));
      }
      if (token.children) {
        walk(token.children);
      }
    }
  };
  walk(md.parse(source, {}));
  return sources;
}

/**
 * A news or announcement body as stored: every image must be a cover or gallery picture of this
 * community (422 `foreign_image` otherwise, when `check`: an update that leaves the body as it was
 * is not refused for what an older text holds; the renderer drops such images anyway).
 */
export async function renderContent(ctx: TenantCtx, source: string, check = true): Promise<string> {
  if (check) {
    await requireOwnImages(ctx, imageSources(source), { field: "body", purposes: ["sampul", "galeri"] });
  }
  return renderMarkdown(source, ctx.config.APP_URL);
}

/** The first characters of the text, without Markdown marks: push bodies and previews. */
export function plainExcerpt(source: string, max = 180): string {
  const text = source
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#>*_`~]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
