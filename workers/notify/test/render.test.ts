import { describe, expect, it } from "vitest";
import { defaultTemplates } from "../src/templates/defaults";
import { escapeHtml, missingVariables, placeholdersOf, renderTemplate } from "../src/templates/render";

describe("template rendering", () => {
  const parts = {
    subject: "Halo {{ name }}",
    html: '<p>{{name}}</p><a href="{{actionUrl}}">x</a><p>{{user.city}}</p>',
    text: "Halo {{name}} dari {{user.city}}",
  };

  it("HTML-escapes every value in the html part", () => {
    const out = renderTemplate(parts, {
      name: `<script>alert("x")</script>&'`,
      actionUrl: "https://a.example/?a=1&b=2",
    });
    expect(out.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;");
    expect(out.html).not.toContain("<script>");
    expect(out.html).toContain('href="https://a.example/?a=1&amp;b=2"');
  });

  it("leaves the text part and subject unescaped, and keeps the subject on one line", () => {
    const out = renderTemplate(parts, { name: "Budi & <Sari>\nBcc: x@evil.example" });
    expect(out.text).toContain("Budi & <Sari>\nBcc");
    expect(out.subject).toBe("Halo Budi & <Sari> Bcc: x@evil.example");
  });

  it("turns a link variable that is not http(s) into #", () => {
    expect(renderTemplate(parts, { actionUrl: "javascript:alert(1)" }).html).toContain('href="#"');
  });

  it("reads dotted paths, renders missing values as empty, keeps line breaks in HTML", () => {
    const out = renderTemplate(parts, { name: "a\nb", user: { city: "Bandung" } });
    expect(out.html).toContain("<p>a<br>b</p>");
    expect(out.html).toContain("<p>Bandung</p>");
    expect(renderTemplate(parts, {}).text).toBe("Halo  dari ");
  });

  it("does not read inherited properties", () => {
    expect(renderTemplate({ subject: "{{constructor}}", html: "", text: "" }, {}).subject).toBe("");
  });

  it("reports missing required variables", () => {
    expect(missingVariables(["a", "b.c", "d"], { a: "1", b: { c: "" } })).toEqual(["b.c", "d"]);
    expect(escapeHtml("<&>")).toBe("&lt;&amp;&gt;");
  });

  it("seeds templates whose required variables all appear in them", () => {
    for (const t of defaultTemplates) {
      const used = new Set([t.subject, t.html, t.text].flatMap(placeholdersOf));
      for (const v of t.variables) {
        expect(used.has(v), `${t.code} uses ${v}`).toBe(true);
      }
      expect(missingVariables(t.variables, t.sampleData), `${t.code} sample data`).toEqual([]);
    }
  });
});
