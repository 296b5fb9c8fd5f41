import { describe, expect, it } from "vitest";
import { tenantD1 } from "../../helpers/d1";
import { photoForm } from "../../helpers/factories";
import { callJson, createTenant, expectProblem, type Member } from "../../helpers/harness";

interface Complaint {
  id: string;
  photo: string | null;
}
interface Problem {
  errors?: { field: string; message: string }[];
}

const upload = async (member: Member, purpose = "pengaduan") => {
  const res = await callJson<{ id: string; url: string }>("/api/files", {
    token: member.token,
    body: photoForm(purpose),
  });
  expect(res.status).toBe(201);
  return res.body;
};

const complain = (member: Member, photo: string) =>
  callJson<Complaint & Problem>("/api/pengaduan", {
    token: member.token,
    body: {
      title: "Got mampet",
      description: "Got depan blok D mampet sejak hujan",
      category: "kebersihan",
      photo,
    },
  });

/** Issue 31 ("Also"): a complaint's photo is the complainant's own upload to the community, nothing else. */
describe("complaint photos", () => {
  it("take the complainant's own upload, shown to the staff who handle it", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const sek = await tenant.member("sekretaris");
    const file = await upload(warga);
    const created = await complain(warga, file.url);
    expect(created.status).toBe(201);
    expect(created.body.photo).toBe(file.url);
    const seen = await callJson<Complaint>(`/api/pengaduan/${created.body.id}`, { token: sek.token });
    expect(seen.body.photo).toBe(file.url);
    // The path alone names the same file and is stored as the full file route.
    const byPath = await complain(warga, new URL(file.url).pathname);
    expect(byPath.status).toBe(201);
    expect(byPath.body.photo).toBe(file.url);
  });

  it("refuse third-party images, another resident's or another community's upload, and other purposes: 422 foreign_image", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const warga = await tenant.member("warga");
    const neighbour = await tenant.member("warga");
    const stranger = await other.member("warga");
    const theirs = await upload(neighbour);
    const elsewhere = await upload(stranger);
    const proof = await upload(warga, "bukti_bayar");
    const mine = await upload(warga);
    const base = new URL(mine.url).origin;
    for (const photo of [
      "https://img.example/lampu.jpg",
      `//img.example/api/files/${mine.id}`,
      `https://img.example/api/files/${mine.id}`,
      `${mine.url}?track=1`,
      `${base}/api/files/../files/${mine.id}`,
      "tenants/other/pengaduan/x.jpg",
      theirs.url,
      elsewhere.url.replace(new URL(elsewhere.url).origin, base),
      proof.url,
    ]) {
      const res = await complain(warga, photo);
      expectProblem(res, 422, "foreign_image");
      expect(res.body.errors?.[0]?.field).toBe("photo");
    }
    const list = await callJson<{ items: Complaint[] }>("/api/pengaduan/mine", { token: warga.token });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
  });

  it("an older complaint's third-party photo URL is not handed on", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const created = await complain(warga, (await upload(warga)).url);
    await tenantD1(tenant)
      .prepare("UPDATE complaints SET photo = 'https://tracker.example/pixel.png' WHERE id = ?")
      .bind(created.body.id)
      .run();
    const seen = await callJson<Complaint>(`/api/pengaduan/${created.body.id}`, { token: warga.token });
    expect(seen.status).toBe(200);
    expect(seen.body.photo).toBeNull();
  });

  it("says why in Indonesian when asked", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const res = await callJson<{ title: string; code: string }>("/api/pengaduan", {
      token: warga.token,
      headers: { "Accept-Language": "id" },
      body: {
        title: "Got mampet",
        description: "Got depan blok D mampet",
        category: "kebersihan",
        photo: "https://x.example/a.jpg",
      },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: "foreign_image",
      title: "Gambar harus diunggah ke komunitas ini",
    });
  });
});
