import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../../src/modules/konten/markdown";
import { photoForm } from "../../helpers/factories";
import { bindings, callJson, createTenant, expectProblem, type Member } from "../../helpers/harness";

interface Content {
  id: string;
  bodyHtml: string;
}
interface Problem {
  errors?: { field: string; message: string }[];
}

const cover = async (member: Member) => {
  const res = await callJson<{ id: string; url: string }>("/api/files", {
    token: member.token,
    body: photoForm("sampul"),
  });
  expect(res.status).toBe(201);
  return res.body;
};

const write = (member: Member, path: string, body: string, method = "POST") =>
  callJson<Content & Problem>(path, {
    method,
    token: member.token,
    body: { title: "Kerja bakti Minggu", body },
  });

/** Issue 31 ("Also"): pictures in news and announcements come only from the community's own uploads. */
describe("images in news and announcements", () => {
  it("show the community's own cover uploads", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const file = await cover(sek);
    const news = await write(sek, "/api/berita", `Foto kegiatan:\n\n![kerja bakti](${file.url})`);
    expect(news.status).toBe(201);
    expect(news.body.bodyHtml).toContain(`<img src="${file.url}" alt="kerja bakti">`);
    const notice = await write(sek, "/api/pengumuman", `![peta](${new URL(file.url).pathname})`);
    expect(notice.status).toBe(201);
    expect(notice.body.bodyHtml).toContain(`<img src="${new URL(file.url).pathname}" alt="peta">`);
  });

  it("refuse any other image with 422 foreign_image on `body`, naming it, on create and on update", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const sek = await tenant.member("sekretaris");
    const warga = await tenant.member("warga");
    const mine = await cover(sek);
    const elsewhere = await cover(await other.member("sekretaris"));
    const evidence = await callJson<{ url: string }>("/api/files", {
      token: warga.token,
      body: photoForm("pengaduan"),
    });
    const base = new URL(mine.url).origin;
    for (const src of [
      "https://tracker.example/pixel.png",
      "//tracker.example/pixel.png",
      `https://tracker.example/api/files/${mine.id}`,
      `${mine.url}?u=1`,
      elsewhere.url.replace(new URL(elsewhere.url).origin, base),
      evidence.body.url,
    ]) {
      for (const path of ["/api/berita", "/api/pengumuman"]) {
        const res = await write(sek, path, `Lihat ![foto](${src}) dan ![ok](${mine.url})`);
        expectProblem(res, 422, "foreign_image");
        expect(res.body.errors).toEqual([
          { field: "body", message: expect.stringContaining(src.slice(0, 40)) },
        ]);
      }
    }
    const news = await write(sek, "/api/berita", "Tanpa gambar");
    const notice = await write(sek, "/api/pengumuman", "Tanpa gambar");
    for (const [path, id] of [
      ["/api/berita", news.body.id],
      ["/api/pengumuman", notice.body.id],
    ]) {
      const res = await write(sek, `${path}/${id}`, "![x](https://tracker.example/p.png)", "PUT");
      expectProblem(res, 422, "foreign_image");
    }
  });

  it("the renderer drops an image that is not the API's own file route, keeping its alt text", () => {
    const appUrl = bindings.APP_URL;
    const html = renderMarkdown(
      [
        "![luar](https://tracker.example/p.png)",
        "![relatif](//tracker.example/p.png)",
        "![milik](/api/files/01JABCDEF)",
        `![penuh](${appUrl}/api/files/01JABCDEF)`,
      ].join("\n\n"),
      appUrl,
    );
    expect(html).not.toContain("tracker.example");
    expect(html).toContain("<p>luar</p>");
    expect(html).toContain('<img src="/api/files/01JABCDEF" alt="milik">');
    expect(html).toContain(`<img src="${appUrl}/api/files/01JABCDEF" alt="penuh">`);
  });
});
