import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/app";
import { indonesianTitle, pickLanguage } from "../../src/core/i18n";
import { callJson, createTenant, ENGLISH, expectProblem, expectRefusedMove } from "../helpers/harness";

interface ProblemBody {
  title: string;
  detail: string;
  code: string;
  errors?: { field: string; message: string }[];
}

describe("problems in the caller's language (issue 30 item 3; Indonesian by default, issue 42)", () => {
  it("has an Indonesian title for every code /openapi.json lists", () => {
    const missing = ERROR_CODES.filter((code) => !indonesianTitle(code));
    expect(missing).toEqual([]);
  });

  it("picks id or en from Accept-Language, Indonesian when it asks for neither (issue 42)", () => {
    expect(pickLanguage(null)).toBe("id");
    expect(pickLanguage("")).toBe("id");
    expect(pickLanguage("id")).toBe("id");
    expect(pickLanguage("id-ID,id;q=0.9,en-US;q=0.8")).toBe("id");
    expect(pickLanguage("en")).toBe("en");
    expect(pickLanguage("en-US")).toBe("en");
    expect(pickLanguage("en-GB,en;q=0.9")).toBe("en");
    expect(pickLanguage("en-US,en;q=0.9,id;q=0.8")).toBe("en");
    expect(pickLanguage("fr-FR;q=1, en;q=0.6, id;q=0.5")).toBe("en");
    expect(pickLanguage("en;q=0.4, id;q=0.7")).toBe("id");
    expect(pickLanguage("en;q=0.5, id")).toBe("id");
    expect(pickLanguage("id, en")).toBe("id");
    expect(pickLanguage("en, id")).toBe("en");
    expect(pickLanguage("fr-FR, de")).toBe("id");
    expect(pickLanguage("fr")).toBe("id");
    expect(pickLanguage("*")).toBe("id");
    expect(pickLanguage("en;q=0")).toBe("id");
    // Refusing Indonesian and naming nothing else it accepts leaves English.
    expect(pickLanguage("id;q=0")).toBe("en");
    expect(pickLanguage("id;q=0, en;q=0")).toBe("id");
    // A caller may still ask for another default (none does today).
    expect(pickLanguage(null, "en")).toBe("en");
    expect(pickLanguage("fr", "en")).toBe("en");
  });

  it("a problem with no Accept-Language is Indonesian; `en` is English; `fr` and `en;q=0.5, id` Indonesian", async () => {
    const tenant = await createTenant();
    const a = await tenant.member("warga");
    // A missing title: a field message from the route's schema; the detail and title from the code.
    const bad = { title: "", description: "Lampu mati", category: "infrastruktur" };
    const send = (acceptLanguage?: string) =>
      callJson<ProblemBody>("/api/pengaduan", {
        token: a.token,
        body: bad,
        headers: acceptLanguage === undefined ? {} : { "Accept-Language": acceptLanguage },
      });
    const indonesian = (res: Awaited<ReturnType<typeof send>>) => {
      expectProblem(res, 400, "invalid_input");
      expect(res.headers.get("Content-Language")).toBe("id");
      expect(res.headers.get("Vary")).toContain("Accept-Language");
      expect(res.body.title).toBe("Data yang dikirim tidak valid");
      expect(res.body.detail).toBe("Data yang dikirim tidak valid.");
      expect(res.body.errors?.find((e) => e.field === "title")?.message).toMatch(/terlalu|karakter|minimal/i);
    };
    indonesian(await send());
    indonesian(await send("fr"));
    indonesian(await send("en;q=0.5, id"));
    indonesian(await send("*"));
    for (const header of ["en", "en-US", "en-GB,en;q=0.9", "en;q=0.9, id;q=0.5"]) {
      const en = await send(header);
      expectProblem(en, 400, "invalid_input");
      expect(en.headers.get("Content-Language")).toBe("en");
      expect(en.body.title).toBe("Bad Request");
      expect(en.body.detail).toBe("The request is not valid.");
      expect(en.body.errors?.find((e) => e.field === "title")?.message).toMatch(/too small|at least|>=/i);
    }
  });

  it("every kind of problem defaults to Indonesian: a 401 before any route, a 404 route, a domain 404", async () => {
    const unauthorized = await callJson<ProblemBody>("/api/kependudukan/units");
    expectProblem(unauthorized, 401, "unauthorized");
    expect(unauthorized.headers.get("Content-Language")).toBe("id");
    expect(unauthorized.body.title).toBe(indonesianTitle("unauthorized"));
    const noRoute = await callJson<ProblemBody>("/api/tidak-ada");
    expectProblem(noRoute, 404, "route_not_found");
    expect(noRoute.body.title).toBe("Alamat tidak ditemukan");
    const tenant = await createTenant();
    const a = await tenant.member("warga");
    const missing = await callJson<ProblemBody>("/api/pengaduan/01HZZZZZZZZZZZZZZZZZZZZZZZ", {
      token: a.token,
    });
    expectProblem(missing, 404, "not_found");
    expect(missing.body).toMatchObject({ title: "Data tidak ditemukan", detail: "Data tidak ditemukan." });
    expect(missing.headers.get("Content-Language")).toBe("id");
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
    const en = await callJson<ProblemBody>("/api/pengaduan", { token: a.token, body: bad, headers: ENGLISH });
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
    expectRefusedMove(id409, ["diproses", "ditolak"]);
    expect(id409.body.title).toBe("Perubahan status ini tidak diizinkan");
    const en409 = await finish("en-US");
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
