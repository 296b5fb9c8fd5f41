import { describe, expect, it } from "vitest";
import { callJson } from "./helpers/worker";

const seeded = [
  "WELCOME",
  "PASSWORD_RESET",
  "MAGIC_LINK",
  "PAYMENT_REMINDER",
  "CONTACT_INQUIRY",
  "CONTACT_AUTO_REPLY",
  "SUPPORT_TICKET_CREATED",
  "SUPPORT_TICKET_SUBMITTER_REPLIED",
  "SUPPORT_TICKET_RESPONDED",
  "VISITOR_APPROVED",
  "ANNOUNCEMENT",
];

interface Rendered {
  subject: string;
  html: string;
  text: string;
}

describe("templates", () => {
  it("lists every seeded template without bodies", async () => {
    const res = await callJson<{ items: Record<string, unknown>[] }>("GET", "/v1/templates");
    expect(res.status).toBe(200);
    const codes = res.body.items.map((t) => t.code);
    expect(codes).toEqual(expect.arrayContaining(seeded));
    expect(res.body.items[0]).not.toHaveProperty("html");
    expect(res.body.items[0]).toMatchObject({ locale: "id", version: expect.any(Number) });
  });

  it("reads one template with HTML and plain-text parts in Indonesian", async () => {
    for (const code of seeded) {
      const res = await callJson<Record<string, string>>("GET", `/v1/templates/${code}`);
      expect(res.status, code).toBe(200);
      expect(res.body.html).toContain('<html lang="id">');
      expect(res.body.text.length).toBeGreaterThan(20);
    }
    const welcome = await callJson<Record<string, string>>("GET", "/v1/templates/WELCOME");
    expect(welcome.body.text).toContain("Akun Anda");
  });

  it("answers 404 for an unknown template and 400 for a malformed code", async () => {
    const missing = await callJson("GET", "/v1/templates/NOPE");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toContain("application/problem+json");
    expect(missing.body).toMatchObject({ code: "template_not_found", status: 404 });
    expect((await callJson("GET", "/v1/templates/bad-code")).status).toBe(400);
  });

  it("previews ticket templates with logo, content card, action button and [TKT:token] subject", async () => {
    for (const code of [
      "SUPPORT_TICKET_CREATED",
      "SUPPORT_TICKET_SUBMITTER_REPLIED",
      "SUPPORT_TICKET_RESPONDED",
    ]) {
      const res = await callJson<Rendered>("POST", `/v1/templates/${code}/preview`, {
        body: { data: { replyToken: "tok123" } },
      });
      expect(res.status).toBe(200);
      expect(res.body.subject).toMatch(/^\[TKT:tok123\] /);
      expect(res.body.html).toContain('<img src="http://127.0.0.1:8787/logo.png"');
      expect(res.body.html).toContain("border-left:4px solid");
      expect(res.body.html).toMatch(/<a href="https:\/\/warga\.example\/[^"]+" style="display:inline-block/);
      expect(res.body.text).not.toContain("{{");
    }
  });

  it("puts the reply token in the contact auto-reply's subject (the seed is migrated to it)", async () => {
    const res = await callJson<Rendered>("POST", "/v1/templates/CONTACT_AUTO_REPLY/preview", {
      body: { data: { replyToken: "tok456" } },
    });
    expect(res.body.subject).toMatch(/^\[TKT:tok456\] Terima kasih/);
  });

  it("previews with sample data when no body is sent, and escapes caller data", async () => {
    const plain = await callJson<Rendered>("POST", "/v1/templates/PAYMENT_REMINDER/preview");
    expect(plain.status).toBe(200);
    expect(plain.body.html).toContain("Rp150.000");
    const hostile = await callJson<Rendered>("POST", "/v1/templates/WELCOME/preview", {
      body: { data: { name: '<img src=x onerror="alert(1)">', loginUrl: "javascript:alert(1)" } },
    });
    expect(hostile.body.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(hostile.body.html).not.toContain("<img src=x");
    expect(hostile.body.html).toContain('href="#"');
  });

  it("creates, then replaces a template, bumping its version", async () => {
    const body = {
      name: "Rapat warga",
      subject: "Undangan rapat {{tanggal}}",
      html: "<p>Rapat pada {{tanggal}}</p>",
      text: "Rapat pada {{tanggal}}",
      variables: ["tanggal"],
      sampleData: { tanggal: "1 Desember" },
    };
    const created = await callJson<Record<string, unknown>>("PUT", "/v1/templates/MEETING_INVITE", { body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: "MEETING_INVITE",
      locale: "id",
      version: 1,
      variables: ["tanggal"],
    });
    const replaced = await callJson<Record<string, unknown>>("PUT", "/v1/templates/MEETING_INVITE", {
      body: { ...body, subject: "Rapat {{tanggal}}" },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ version: 2, subject: "Rapat {{tanggal}}" });
    const preview = await callJson<Rendered>("POST", "/v1/templates/MEETING_INVITE/preview");
    expect(preview.body.subject).toBe("Rapat 1 Desember");
  });

  it("keeps a per-locale copy and falls back to Indonesian", async () => {
    const en = await callJson("PUT", "/v1/templates/WELCOME", {
      body: {
        locale: "en",
        name: "Welcome",
        subject: "Welcome {{name}}",
        html: "<p>Hi {{name}}</p>",
        text: "Hi {{name}}",
        sampleData: { name: "Ann" },
      },
    });
    expect(en.status).toBe(201);
    const english = await callJson<Rendered>("POST", "/v1/templates/WELCOME/preview", {
      body: { locale: "en" },
    });
    expect(english.body.subject).toBe("Welcome Ann");
    const fallback = await callJson<Rendered>("POST", "/v1/templates/PASSWORD_RESET/preview", {
      body: { locale: "en" },
    });
    expect(fallback.body.subject).toBe("Atur ulang kata sandi Warga");
  });

  it("rejects required variables the template does not use", async () => {
    const res = await callJson<{ errors: unknown[] }>("PUT", "/v1/templates/BROKEN", {
      body: { name: "x", subject: "s", html: "<p>h</p>", text: "t", variables: ["ghost"] },
    });
    expect(res.status).toBe(400);
    // Indonesian when the caller names no language (issue 42); the English one under Accept-Language: en.
    expect(res.body.errors).toEqual([{ field: "variables", message: "ghost tidak dipakai oleh templat" }]);
    const english = await callJson<{ errors: unknown[] }>("PUT", "/v1/templates/BROKEN", {
      body: { name: "x", subject: "s", html: "<p>h</p>", text: "t", variables: ["ghost"] },
      headers: { "accept-language": "en" },
    });
    expect(english.body.errors).toEqual([
      { field: "variables", message: "ghost is not used by the template" },
    ]);
  });
});
