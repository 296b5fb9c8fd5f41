import MarkdownIt from "markdown-it";

/**
 * Markdown → HTML for news and announcements, rendered on the server once per write. markdown-it with
 * `html: false` escapes every raw HTML tag the author types (so no <script>, no onerror=), and the
 * only tags in the output are the ones markdown-it itself emits. Links and images pass an allow-list
 * of schemes (http, https, mailto, tel for links; https for images), so javascript:, data: and
 * vbscript: URLs stay plain text. Links open with rel="noopener noreferrer nofollow ugc".
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });

const LINK_SCHEMES = /^(https?:|mailto:|tel:)/i;
const IMAGE_SCHEMES = /^https:/i;
/**
 * An allow-list, not a deny-list: anything with a colon is a scheme (or a disguised one, such as
 * "java\tscript:", which markdown-it has percent-encoded by now) and must be one we allow; without a
 * colon the link is relative and stays inside the app.
 */
function allowed(url: string, image: boolean): boolean {
  const trimmed = url.trim();
  if (!trimmed.includes(":")) {
    return true;
  }
  return (image ? IMAGE_SCHEMES : LINK_SCHEMES).test(trimmed);
}

md.validateLink = (url) => allowed(url, false);

// markdown-it validates image and link targets with the same hook; check images again strictly.
const defaultImage = md.renderer.rules.image;
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const src = String(token?.attrGet("src") ?? "");
  if (!token || !allowed(src, true)) {
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

export function renderMarkdown(source: string): string {
  return md.render(source);
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
