import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/app";
import { indonesianTitle, pickLanguage } from "../../src/core/i18n";
import { callJson, createTenant, expectProblem } from "../helpers/harness";

interface ProblemBody {
  title: string;
  detail: string;
  code: string;
  errors?: { field: string; message: string }[];
}

describe("problems in the caller's language (issue 30 item 3)", () => {
  it("has an Indonesian title for every code /openapi.json lists", () => {
    const missing = ERROR_CODES.filter((code) => !indonesianTitle(code));
    expect(missing).toEqual([]);
  });

  it("picks id or en from Accept-Language, English when it asks for neither", () => {
    expect(pickLanguage(null)).toBe("en");
    expect(pickLanguage("id")).toBe("id");
    expect(pickLanguage("id-ID,id;q=0.9,en-US;q=0.8")).toBe("id");
    expect(pickLanguage("en-US,en;q=0.9,id;q=0.8")).toBe("en");
    expect(pickLanguage("en;q=0.4, id;q=0.7")).toBe("id");
    expect(pickLanguage("fr-FR, de")).toBe("en");
    expect(pickLanguage("id;q=0")).toBe("en");
    expect(pickLanguage("*")).toBe("en");
  });

  it("a validation error: title, detail and field messages in Indonesian, the code unchanged", async () => {
    const tenant = await createTenant();
    const a = await tenant.member("warga");
    const bad = { title: "", description: "Lampu mati", category: "infrastruktur" };
    const id = await callJson<ProblemBody>("/api/pengaduan", {
      token: a.token,
      body: bad,
      headers: { "Accept-Language": "id-ID,id;q=0.9" },
    });
    expectProblem(id, 400, "invalid_input");
    expect(id.headers.get("Content-Language")).toBe("id");
    expect(id.body.title).toBe("Data yang dikirim tidak valid");
    expect(id.body.detail).toBe("Data yang dikirim tidak valid.");
    const field = id.body.errors?.find((e) => e.field === "title");
    expect(field?.message).toMatch(/terlalu|karakter|minimal/i);
    const en = await callJson<ProblemBody>("/api/pengaduan", { token: a.token, body: bad });
    expectProblem(en, 400, "invalid_input");
    expect(en.headers.get("Content-Language")).toBe("en");
    expect(en.body.title).toBe("Bad Request");
    expect(en.body.detail).toBe("The request is not valid.");
    expect(en.body.errors?.find((e) => e.field === "title")?.message).toMatch(/too small|at least|>=/i);
  });

  it("a 404 and a 409 in both languages", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const a = await tenant.member("warga");
    const missing = "/api/pengaduan/01HZZZZZZZZZZZZZZZZZZZZZZZ";
    const id404 = await callJson<ProblemBody>(missing, {
      token: a.token,
      headers: { "Accept-Language": "id" },
    });
    expectProblem(id404, 404, "not_found");
    expect(id404.body.title).toBe("Data tidak ditemukan");
    expect(id404.headers.get("Content-Language")).toBe("id");
    const en404 = await callJson<ProblemBody>(missing, {
      token: a.token,
      headers: { "Accept-Language": "en-GB" },
    });
    expectProblem(en404, 404, "not_found");
    expect(en404.body).toMatchObject({ title: "Not Found", detail: "Complaint not found." });

    const created = await callJson<{ id: string }>("/api/pengaduan", {
      token: a.token,
      body: { title: "Got mampet", description: "Got di gang 3 mampet", category: "infrastruktur" },
    });
    const finish = (lang?: string) =>
      callJson<ProblemBody>(`/api/pengaduan/${created.body.id}`, {
        method: "PUT",
        token: sek.token,
        body: { status: "selesai" },
        headers: lang ? { "Accept-Language": lang } : {},
      });
    const id409 = await finish("id");
    expectProblem(id409, 409, "invalid_transition");
    expect(id409.body.title).toBe("Perubahan status ini tidak diizinkan");
    const en409 = await finish();
    expectProblem(en409, 409, "invalid_transition");
    expect(en409.body.title).toBe("Conflict");
    expect(en409.headers.get("Content-Language")).toBe("en");
  });

  it("a route that does not exist answers in Indonesian too", async () => {
    const res = await callJson<ProblemBody>("/api/tidak-ada", { headers: { "Accept-Language": "id" } });
    expectProblem(res, 404, "route_not_found");
    expect(res.body.title).toBe("Alamat tidak ditemukan");
  });
});
