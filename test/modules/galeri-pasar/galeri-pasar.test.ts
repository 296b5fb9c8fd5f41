import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { users } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { newId } from "../../../src/core/ids";
import { addPhoto } from "../../../src/modules/galeri/service";
import { galleryAlbums } from "../../../src/modules/galeri/tables";
import { moderateListing } from "../../../src/modules/pasar/service";
import { auditTrail, losingRace, memberCtx } from "../../helpers/contexts";
import {
  bindings,
  call,
  callJson,
  createTenant,
  expectProblem,
  expectRefusedMove,
  type Member,
  setTenantFlags,
  type TestTenant,
} from "../../helpers/harness";
import { CLEAN_JPEG, CLEAN_PNG, jpegFromPhone, jpegWithOrientation } from "./images";
import { postFile, type StoredFile } from "./post";

const pathOf = (url: string) => new URL(url).pathname;

interface Photo {
  id: string;
  url: string;
  caption: string | null;
  metadataRemoved?: string[];
}
interface AlbumView {
  id: string;
  title: string;
  photoCount: number;
  cover: Photo | null;
  photos: Photo[];
}
interface ListingView {
  id: string;
  sellerId: string;
  sellerName: string | null;
  title: string;
  price: number | "nego";
  category: string;
  condition: string | null;
  status: string;
  photos: { id: string; url: string }[];
  whatsappUrl?: string | null;
  moderation?: { reason: string; at: string } | null;
}

async function objectCount(tenant: TestTenant, purpose: string, id: string) {
  const listed = await bindings.FILES.list({ prefix: `tenants/${tenant.id}/files/${purpose}/${id}` });
  return listed.objects.length;
}

describe("galeri: albums and photos", () => {
  let tenant: TestTenant;
  let sek: Member;
  let warga: Member;
  let admin: Member;

  beforeAll(async () => {
    tenant = await createTenant();
    [sek, warga, admin] = [
      await tenant.member("sekretaris"),
      await tenant.member("warga"),
      await tenant.member("admin"),
    ];
  });

  const newAlbum = async (title = "Lomba 17 Agustus") => {
    const res = await callJson<AlbumView>("/api/galeri", {
      token: sek.token,
      body: { title, description: "Lomba balap karung dan panjat pinang", eventDate: "2026-08-17" },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const addJpeg = (albumId: string, caption?: string) =>
    postFile(`/api/galeri/${albumId}/foto`, {
      token: sek.token,
      bytes: jpegFromPhone(6),
      name: "IMG_20260817.jpg",
      type: "image/jpeg",
      fields: caption === undefined ? {} : { caption },
    });

  it("the secretariat makes an album and adds a phone photo; members see it, GPS stripped, cached by ETag", async () => {
    const album = await newAlbum();
    expect(album).toMatchObject({ photoCount: 0, cover: null, photos: [] });
    const added = await addJpeg(album.id, "Juara balap karung");
    expect(added.status).toBe(201);
    const photo = added.body as Photo;
    expect(photo.caption).toBe("Juara balap karung");
    expect(photo.metadataRemoved).toEqual(expect.arrayContaining(["exif", "xmp", "trailer"]));

    const view = await callJson<AlbumView>(`/api/galeri/${album.id}`, { token: warga.token });
    expect(view.status).toBe(200);
    expect(view.body.photoCount).toBe(1);
    expect(view.body.cover?.id).toBe(photo.id);
    expect(view.body.photos.map((p) => p.id)).toEqual([photo.id]);

    const image = await call(pathOf(photo.url), { token: warga.token });
    expect(image.status).toBe(200);
    expect(image.headers.get("Cache-Control")).toBe("private, max-age=86400");
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(jpegWithOrientation(6));
    const etag = image.headers.get("ETag") ?? "";
    const cached = await call(pathOf(photo.url), { token: warga.token, headers: { "If-None-Match": etag } });
    expect(cached.status).toBe(304);

    const list = await callJson<{ items: AlbumView[] }>("/api/galeri", { token: warga.token });
    expect(list.body.items.find((a) => a.id === album.id)).toMatchObject({ photoCount: 1 });
    // With a second photo the album's own page and the list agree on its count and its cover (the first).
    expect((await addJpeg(album.id, "Lomba makan kerupuk")).status).toBe(201);
    const two = await callJson<AlbumView>(`/api/galeri/${album.id}`, { token: warga.token });
    const listed = (await callJson<{ items: AlbumView[] }>("/api/galeri", { token: warga.token })).body.items;
    const { photos, ...summary } = two.body;
    expect(photos).toHaveLength(2);
    expect(summary).toEqual(listed.find((a) => a.id === album.id));
    expect(summary).toMatchObject({ photoCount: 2, cover: { id: photo.id } });
    // Another album on the same page: its own count and cover, none of the first album's.
    const second = await newAlbum();
    const its = (await addJpeg(second.id, "Panggung")).body as Photo;
    const page = (await callJson<{ items: AlbumView[] }>("/api/galeri", { token: warga.token })).body.items;
    expect(page.find((a) => a.id === second.id)).toMatchObject({ photoCount: 1, cover: { id: its.id } });
    expect(page.find((a) => a.id === album.id)).toMatchObject({ photoCount: 2, cover: { id: photo.id } });
    const trail = await auditTrail(admin.token);
    expect(trail.map((e) => e.action)).toEqual(
      expect.arrayContaining(["galeri.album.create", "galeri.photo.add"]),
    );
  });

  it("refuses bad albums and bad photos: no title, not an image, a long caption, an unknown album", async () => {
    expectProblem(
      await callJson("/api/galeri", { token: sek.token, body: { title: "" } }),
      400,
      "invalid_input",
    );
    expectProblem(
      await callJson("/api/galeri", { token: sek.token, body: { title: "Ronda", eventDate: "17-08-2026" } }),
      400,
      "invalid_input",
    );
    const album = await newAlbum("Kerja bakti");
    const html = new TextEncoder().encode("<html><script>alert(1)</script></html>");
    expectProblem(
      await postFile(`/api/galeri/${album.id}/foto`, {
        token: sek.token,
        bytes: html,
        name: "a.jpg",
        type: "image/jpeg",
      }),
      415,
      "unsupported_image_type",
    );
    expectProblem(await addJpeg(album.id, "x".repeat(301)), 400, "invalid_input");
    expectProblem(await addJpeg(newId()), 404, "album_not_found");
    expectProblem(
      await postFile(`/api/galeri/${album.id}/foto`, {
        token: warga.token,
        bytes: CLEAN_PNG,
        name: "a.png",
        type: "image/png",
      }),
      403,
      "forbidden_role",
    );
  });

  it("deleting a photo or an album removes the rows and the stored bytes", async () => {
    const album = await newAlbum("Posyandu");
    const first = (await addJpeg(album.id)).body as Photo;
    const second = (await addJpeg(album.id)).body as Photo;
    expect(await objectCount(tenant, "galeri", first.id)).toBe(1);

    expect(
      (await call(`/api/galeri/${album.id}/foto/${first.id}`, { method: "DELETE", token: sek.token })).status,
    ).toBe(204);
    expect(await objectCount(tenant, "galeri", first.id)).toBe(0);
    expect((await call(pathOf(first.url), { token: warga.token })).status).toBe(404);
    expectProblem(
      await callJson(`/api/galeri/${album.id}/foto/${first.id}`, { method: "DELETE", token: sek.token }),
      404,
      "not_found",
    );

    expect((await call(`/api/galeri/${album.id}`, { method: "DELETE", token: admin.token })).status).toBe(
      204,
    );
    expect(await objectCount(tenant, "galeri", second.id)).toBe(0);
    expectProblem(await callJson(`/api/galeri/${album.id}`, { token: warga.token }), 404, "album_not_found");
    const trail = await auditTrail(admin.token);
    expect(
      trail.find((e) => e.action === "galeri.album.delete" && e.targetId === album.id)?.detail,
    ).toMatchObject({
      photos: 1,
    });
  });

  it("a photo added while its album is deleted is refused, and its stored object removed again", async () => {
    const album = await newAlbum("Rapat warga");
    const ctx = losingRace(await memberCtx(tenant.slug, sek, "sekretaris"), (db) =>
      db.delete(galleryAlbums).where(eq(galleryAlbums.id, album.id)),
    );
    const upload = {
      bytes: CLEAN_JPEG,
      contentType: "image/jpeg" as const,
      size: CLEAN_JPEG.byteLength,
      filename: "a.jpg",
    };
    await expect(addPhoto({ ctx, id: album.id, input: { upload, caption: null } })).rejects.toMatchObject({
      code: "album_not_found",
    });
    const left = await bindings.FILES.list({ prefix: `tenants/${tenant.id}/files/galeri/` });
    const rows = await callJson<{ items: AlbumView[] }>("/api/galeri?limit=100", { token: warga.token });
    const knownPhotos = rows.body.items.reduce((n, a) => n + a.photoCount, 0);
    expect(left.objects.length).toBe(knownPhotos);
  });
});

describe("pasar: listings, photos, WhatsApp contact and moderation", () => {
  let tenant: TestTenant;
  let seller: Member;
  let buyer: Member;
  let sek: Member;
  let admin: Member;

  beforeAll(async () => {
    tenant = await createTenant();
    [seller, buyer, sek, admin] = [
      await tenant.member("warga", { whatsapp: "081234567890" }),
      await tenant.member("warga", { whatsapp: "081298765432" }),
      await tenant.member("sekretaris"),
      await tenant.member("admin"),
    ];
    await platformDb(bindings).update(users).set({ name: "Sri Wahyuni" }).where(eq(users.id, seller.id));
  });

  const photo = async (member = seller, purpose = "pasar") => {
    const res = await postFile("/api/files", {
      token: member.token,
      bytes: jpegFromPhone(1),
      name: "barang.jpg",
      type: "image/jpeg",
      fields: { purpose },
    });
    expect(res.status).toBe(201);
    return res.body as StoredFile;
  };
  const list = (body: Record<string, unknown>, member = seller) =>
    callJson<ListingView>("/api/pasar/listings", { token: member.token, body });
  const nasiUduk = {
    title: "Nasi uduk Bu Sri",
    description: "Nasi uduk komplit, pesan H-1",
    price: 12000,
    category: "makanan",
    condition: "baru",
  };

  it("a resident lists goods with photos; a neighbour sees it with a WhatsApp link to the seller", async () => {
    const [a, b] = [await photo(), await photo()];
    const created = await list({ ...nasiUduk, photoIds: [b.id, a.id] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      sellerId: seller.id,
      sellerName: "Sri Wahyuni",
      price: 12000,
      category: "makanan",
      condition: "baru",
      status: "aktif",
      whatsappUrl: null,
      moderation: null,
    });
    expect(created.body.photos.map((p) => p.id)).toEqual([b.id, a.id]);

    const seen = await callJson<ListingView>(`/api/pasar/listings/${created.body.id}`, {
      token: buyer.token,
    });
    expect(seen.status).toBe(200);
    const wa = new URL(seen.body.whatsappUrl ?? "");
    expect(`${wa.origin}${wa.pathname}`).toBe("https://wa.me/6281234567890");
    expect(wa.searchParams.get("text")).toBe(
      'Halo Sri Wahyuni, saya tertarik dengan "Nasi uduk Bu Sri" di Pasar RT Uji. Apakah masih tersedia?',
    );
    const image = await call(pathOf(seen.body.photos[0]?.url ?? ""), { token: buyer.token });
    expect(image.status).toBe(200);
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(CLEAN_JPEG);

    // The market and the seller's own list carry each listing's photos in order (read with the page in
    // one batch), and a listing without photos has none of another's.
    const bare = await list({ ...nasiUduk, title: "Nasi uduk tanpa foto" });
    expect(bare.status).toBe(201);
    for (const [path, token] of [
      ["/api/pasar/listings", buyer.token],
      ["/api/pasar/mine", seller.token],
    ] as const) {
      const page = await callJson<{ items: ListingView[] }>(path, { token });
      expect(page.status).toBe(200);
      const photosOf = (id: string) => page.body.items.find((l) => l.id === id)?.photos.map((p) => p.id);
      expect(photosOf(created.body.id)).toEqual([b.id, a.id]);
      expect(photosOf(bare.body.id)).toEqual([]);
    }
  });

  it("checks the fields: services have no condition, goods need one, used goods are bekas, price or nego", async () => {
    const service = await list({
      title: "Jasa servis AC",
      description: "Cuci AC 1/2–2 PK",
      price: "nego",
      category: "jasa",
    });
    expect(service.status).toBe(201);
    expect(service.body).toMatchObject({ price: "nego", condition: null });
    const bike = await list({
      title: "Sepeda bekas Polygon",
      description: "Ban baru ganti",
      price: 850000,
      category: "barang_bekas",
    });
    expect(bike.body.condition).toBe("bekas");
    for (const bad of [
      { ...nasiUduk, category: "jasa" },
      { ...nasiUduk, condition: undefined },
      { ...nasiUduk, category: "barang_bekas", condition: "baru" },
      { ...nasiUduk, price: -1 },
      { ...nasiUduk, price: 1.5 },
      { ...nasiUduk, category: "elektronik" },
      { ...nasiUduk, title: "" },
      { ...nasiUduk, photoIds: ["a", "b", "c", "d", "e", "f"] },
    ]) {
      expectProblem(await list(bad), 400, "invalid_input");
    }
  });

  it("photos must be the seller's own marketplace uploads, each on one listing only", async () => {
    const neighbours = await photo(buyer);
    expectProblem(await list({ ...nasiUduk, photoIds: [neighbours.id] }), 404, "file_not_found");
    const proof = await photo(seller, "bukti_bayar");
    const wrong = await list({ ...nasiUduk, photoIds: [proof.id] });
    expectProblem(wrong, 400, "invalid_file_purpose");
    expect(wrong.body).toMatchObject({ errors: [{ field: "photoIds.0" }] });
    const used = await photo();
    expect((await list({ ...nasiUduk, photoIds: [used.id] })).status).toBe(201);
    expectProblem(await list({ ...nasiUduk, photoIds: [used.id] }), 409, "file_in_use");
  });

  it("a seller without a WhatsApp number on their profile is asked to add one first", async () => {
    const nobody = await tenant.member("warga");
    expectProblem(await list(nasiUduk, nobody), 409, "no_contact");
  });

  it("lists active listings newest first, by search text and category, page by page", async () => {
    const rt = await createTenant();
    const [s, b] = [await rt.member("warga", { whatsapp: "081311112222" }), await rt.member("warga")];
    const post = (body: Record<string, unknown>) =>
      callJson<ListingView>("/api/pasar/listings", { token: s.token, body });
    const kue = await post({
      title: "Kue lapis legit",
      description: "Diskon 10% untuk RT",
      price: 150000,
      category: "makanan",
      condition: "baru",
    });
    const tas = await post({
      title: "Tas anyaman pandan",
      description: "Buatan ibu-ibu PKK",
      price: 75000,
      category: "kerajinan",
      condition: "baru",
    });
    const ac = await post({
      title: "Jasa servis AC",
      description: "Bergaransi",
      price: "nego",
      category: "jasa",
    });
    const sold = await post({
      title: "Kulkas 2 pintu",
      description: "Masih dingin",
      price: 1200000,
      category: "barang_bekas",
    });
    await callJson(`/api/pasar/listings/${sold.body.id}`, {
      method: "PUT",
      token: s.token,
      body: { status: "terjual" },
    });

    const titles = async (query: string) =>
      (
        await callJson<{ items: ListingView[] }>(`/api/pasar/listings${query}`, { token: b.token })
      ).body.items.map((l) => l.title);
    expect(await titles("")).toEqual(["Jasa servis AC", "Tas anyaman pandan", "Kue lapis legit"]);
    expect(await titles("?q=PANDAN")).toEqual(["Tas anyaman pandan"]);
    expect(await titles("?q=10%25")).toEqual(["Kue lapis legit"]);
    expect(await titles("?q=%25")).toEqual(["Kue lapis legit"]);
    expect(await titles("?category=jasa")).toEqual(["Jasa servis AC"]);
    const first = await callJson<{ items: ListingView[]; nextCursor: string }>(
      "/api/pasar/listings?limit=2",
      {
        token: b.token,
      },
    );
    expect(first.body.items.map((l) => l.id)).toEqual([ac.body.id, tas.body.id]);
    const next = await callJson<{ items: ListingView[]; nextCursor: string | null }>(
      `/api/pasar/listings?limit=2&cursor=${first.body.nextCursor}`,
      { token: b.token },
    );
    expect(next.body.items.map((l) => l.id)).toEqual([kue.body.id]);
    expect(next.body.nextCursor).toBeNull();
    expectProblem(
      await callJson("/api/pasar/listings?category=mobil", { token: b.token }),
      400,
      "invalid_input",
    );
    expectProblem(
      await callJson("/api/pasar/listings?status=disembunyikan", { token: b.token }),
      403,
      "forbidden_role",
    );
  });

  it("only the seller edits or deletes; replaced and deleted photos are removed from storage", async () => {
    const [a, b, c] = [await photo(), await photo(), await photo()];
    const created = (await list({ ...nasiUduk, photoIds: [a.id, b.id] })).body;
    const put = (member: Member, body: Record<string, unknown>) =>
      callJson<ListingView>(`/api/pasar/listings/${created.id}`, {
        method: "PUT",
        token: member.token,
        body,
      });
    expectProblem(await put(buyer, { price: 1 }), 404, "listing_not_found");
    expectProblem(await put(admin, { price: 1 }), 404, "listing_not_found");
    expectProblem(await put(seller, { status: "disembunyikan" }), 400, "invalid_input");

    const edited = await put(seller, { price: "nego", photoIds: [c.id, a.id], status: "terjual" });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ price: "nego", status: "terjual" });
    expect(edited.body.photos.map((p) => p.id)).toEqual([c.id, a.id]);
    expect(await objectCount(tenant, "pasar", b.id)).toBe(0);
    expect(await objectCount(tenant, "pasar", a.id)).toBe(1);

    expectProblem(
      await callJson(`/api/pasar/listings/${created.id}`, { method: "DELETE", token: buyer.token }),
      404,
      "listing_not_found",
    );
    expect(
      (await call(`/api/pasar/listings/${created.id}`, { method: "DELETE", token: seller.token })).status,
    ).toBe(204);
    expect(await objectCount(tenant, "pasar", a.id)).toBe(0);
    expect(await objectCount(tenant, "pasar", c.id)).toBe(0);
    expectProblem(
      await callJson(`/api/pasar/listings/${created.id}`, { token: seller.token }),
      404,
      "listing_not_found",
    );
  });

  it("staff hide a listing with a reason: the seller sees it (even with push down); others no longer find it", async () => {
    const created = (
      await list({
        title: "Obat kuat herbal",
        description: "Tanpa izin BPOM",
        price: 50000,
        category: "lainnya",
        condition: "baru",
      })
    ).body;
    const moderate = (body: Record<string, unknown>, member = sek) =>
      callJson<ListingView>(`/api/pasar/listings/${created.id}/moderasi`, {
        method: "PUT",
        token: member.token,
        body,
      });

    expectProblem(await moderate({ status: "disembunyikan" }), 400, "invalid_input");
    expectProblem(await moderate({ status: "terjual", reason: "Laku" }), 400, "invalid_input");
    const hidden = await moderate({ status: "disembunyikan", reason: "Produk obat tanpa izin edar BPOM" });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({
      status: "disembunyikan",
      moderation: { reason: "Produk obat tanpa izin edar BPOM" },
    });
    expectRefusedMove(await moderate({ status: "disembunyikan", reason: "Lagi" }), ["aktif"]);

    const own = await callJson<ListingView>(`/api/pasar/listings/${created.id}`, { token: seller.token });
    expect(own.body.moderation?.reason).toBe("Produk obat tanpa izin edar BPOM");
    const mine = await callJson<{ items: ListingView[] }>("/api/pasar/mine", { token: seller.token });
    expect(mine.body.items.find((l) => l.id === created.id)?.moderation?.reason).toBe(
      "Produk obat tanpa izin edar BPOM",
    );
    expectProblem(
      await callJson(`/api/pasar/listings/${created.id}`, { token: buyer.token }),
      404,
      "listing_not_found",
    );
    const market = await callJson<{ items: ListingView[] }>("/api/pasar/listings?limit=100", {
      token: buyer.token,
    });
    expect(market.body.items.map((l) => l.id)).not.toContain(created.id);
    const queue = await callJson<{ items: ListingView[] }>("/api/pasar/listings?status=disembunyikan", {
      token: admin.token,
    });
    expect(queue.body.items.map((l) => l.id)).toContain(created.id);
    expectProblem(
      await callJson(`/api/pasar/listings/${created.id}`, {
        method: "PUT",
        token: seller.token,
        body: { status: "aktif" },
      }),
      409,
      "listing_hidden",
    );

    const restored = await moderate({ status: "aktif", reason: "Sudah diganti jamu bersertifikat" }, admin);
    expect(restored.body.status).toBe("aktif");
    const trail = await auditTrail(admin.token);
    expect(trail.filter((e) => e.targetId === created.id).map((e) => e.action)).toEqual([
      "pasar.listing.hide",
      "pasar.listing.restore",
    ]);
  });

  it("the moderation is pushed to the seller: what goes to the notification service", async () => {
    const created = (await list({ ...nasiUduk, title: "Rokok eceran" })).body;
    const sent: { url: string; key: string | null; body: Record<string, unknown> }[] = [];
    const base = await memberCtx(tenant.slug, sek, "sekretaris");
    const NOTIFY = {
      async fetch(input: RequestInfo | URL, init?: RequestInit) {
        const request = new Request(input, init);
        sent.push({
          url: new URL(request.url).pathname,
          key: request.headers.get("idempotency-key"),
          body: (await request.json()) as Record<string, unknown>,
        });
        return Response.json({ messageIds: [newId()], replayed: false }, { status: 202 });
      },
    } as unknown as Fetcher;
    const ctx = { ...base, env: { ...base.env, NOTIFY } };
    const input = { status: "disembunyikan" as const, reason: "Dilarang menjual rokok eceran" };
    const hidden = await moderateListing({ ctx, id: created.id, input });
    expect(hidden).toMatchObject({ status: "disembunyikan" });
    expect(sent).toEqual([
      {
        url: "/v1/push/send",
        key: expect.stringMatching(new RegExp(`^pasar-moderasi:${tenant.slug}:${created.id}:`)),
        body: {
          userIds: [seller.id],
          tenant: tenant.slug,
          title: "Iklan Anda disembunyikan",
          body: '"Rokok eceran": Dilarang menjual rokok eceran',
          data: { screen: "pasar", id: created.id },
          idempotencyKey: expect.stringMatching(/^pasar-moderasi:/),
        },
      },
    ]);
  });

  it("with the pasar feature off every route is 403 feature_disabled; another tenant's listing is 404", async () => {
    const created = (await list(nasiUduk)).body;
    const other = await createTenant();
    const stranger = await other.member("warga");
    expectProblem(
      await callJson(`/api/pasar/listings/${created.id}`, { token: stranger.token }),
      404,
      "listing_not_found",
    );
    const rt = await createTenant();
    const member = await rt.member("warga", { whatsapp: "081377778888" });
    await setTenantFlags(rt, { pasar: false });
    expectProblem(await callJson("/api/pasar/listings", { token: member.token }), 403, "feature_disabled");
    expectProblem(
      await callJson("/api/pasar/listings", { token: member.token, body: nasiUduk }),
      403,
      "feature_disabled",
    );
  });
});
