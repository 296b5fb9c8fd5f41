import { beforeAll, describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES } from "../../../src/core/files";
import { stripImageMetadata } from "../../../src/platform/uploads/metadata";
import { requireTenantFile } from "../../../src/platform/uploads/store";
import { memberCtx } from "../../helpers/contexts";
import {
  bindings,
  call,
  callJson,
  createTenant,
  expectProblem,
  type Member,
  setTenantFlags,
  type TestTenant,
} from "../../helpers/harness";
import {
  CLEAN_JPEG,
  CLEAN_PNG,
  CLEAN_WEBP,
  jpegFromPhone,
  jpegWithOrientation,
  pngFromPhone,
  webpFromPhone,
} from "./images";
import { postFile, type StoredFile } from "./post";

const hex = async (bytes: Uint8Array) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const has = (haystack: Uint8Array, needle: string) =>
  new TextDecoder("latin1").decode(haystack).includes(needle);

describe("image metadata stripping (real images with what phones add)", () => {
  it("JPEG: EXIF with GPS, XMP, IPTC, comment and trailer go; the picture and its orientation stay", () => {
    const phone = jpegFromPhone(6);
    expect(has(phone, "SAMSUNG")).toBe(true);
    const clean = stripImageMetadata(phone, "image/jpeg");
    expect(clean.bytes).toEqual(jpegWithOrientation(6));
    expect(clean.removed.sort()).toEqual(["comment", "exif", "iptc", "trailer", "xmp"]);
    for (const leak of ["SAMSUNG", "GPSLatitude", "Kampung", "Budi", "MotionPhoto"]) {
      expect(has(clean.bytes, leak)).toBe(false);
    }
  });

  it("JPEG: an upright photo (orientation 1) keeps no EXIF at all; a clean one is unchanged", () => {
    expect(stripImageMetadata(jpegFromPhone(1), "image/jpeg").bytes).toEqual(CLEAN_JPEG);
    expect(stripImageMetadata(CLEAN_JPEG, "image/jpeg")).toEqual({ bytes: CLEAN_JPEG, removed: [] });
  });

  it("PNG: eXIf, tEXt and iTXt (XMP) chunks and bytes after IEND go; every other chunk is kept as is", () => {
    const clean = stripImageMetadata(pngFromPhone(), "image/png");
    expect(clean.bytes).toEqual(CLEAN_PNG);
    expect(clean.removed.sort()).toEqual(["exif", "text", "trailer"]);
  });

  it("WebP: EXIF and XMP chunks go, the VP8X flags are cleared and the RIFF size is rewritten", () => {
    const clean = stripImageMetadata(webpFromPhone(), "image/webp");
    expect(clean.bytes).toEqual(CLEAN_WEBP);
    expect(clean.removed.sort()).toEqual(["exif", "xmp"]);
  });

  it("a file whose structure runs past its end is refused: its metadata could not be promised gone", () => {
    for (const [bytes, type] of [
      [CLEAN_JPEG.subarray(0, 400), "image/jpeg"],
      [CLEAN_PNG.subarray(0, 40), "image/png"],
      [CLEAN_WEBP.subarray(0, 100), "image/webp"],
    ] as const) {
      expect(() => stripImageMetadata(bytes, type)).toThrow(/could not be read/);
    }
  });
});

describe("tenant file store: POST /api/files and GET /api/files/:id", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let warga: Member;
  let neighbour: Member;
  let bendahara: Member;
  let sekretaris: Member;

  beforeAll(async () => {
    [tenant, other] = [await createTenant(), await createTenant()];
    [warga, neighbour, bendahara, sekretaris] = [
      await tenant.member("warga"),
      await tenant.member("warga"),
      await tenant.member("bendahara"),
      await tenant.member("sekretaris"),
    ];
  });

  it("stores a resident's proof of payment without its metadata, under a server-chosen key", async () => {
    const res = await postFile("/api/files", {
      token: warga.token,
      bytes: jpegFromPhone(6),
      name: "../../etc/rumah saya.jpg",
      type: "text/html",
      fields: { purpose: "bukti_bayar" },
    });
    expect(res.status).toBe(201);
    const file = res.body as StoredFile;
    const stored = jpegWithOrientation(6);
    expect(file).toMatchObject({
      purpose: "bukti_bayar",
      contentType: "image/jpeg",
      size: stored.byteLength,
      sha256: await hex(stored),
      uploadedBy: warga.id,
      url: expect.stringMatching(new RegExp(`/api/files/${file.id}$`)),
    });
    expect(file.metadataRemoved).toContain("exif");
    const listed = await bindings.FILES.list({ prefix: `tenants/${tenant.id}/files/bukti_bayar/` });
    expect(listed.objects.map((o) => o.key)).toContain(
      `tenants/${tenant.id}/files/bukti_bayar/${file.id}.jpg`,
    );

    const got = await call(`/api/files/${file.id}`, { token: warga.token });
    expect(got.status).toBe(200);
    expect(got.headers.get("Content-Type")).toBe("image/jpeg");
    expect(got.headers.get("Cache-Control")).toBe("private, max-age=86400");
    expect(got.headers.get("ETag")).toBe(`"${file.sha256}"`);
    expect(got.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await bytesOf(got)).toEqual(stored);

    const again = await call(`/api/files/${file.id}`, {
      token: warga.token,
      headers: { "If-None-Match": `W/"${file.sha256}"` },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(`"${file.sha256}"`);
    expect(await again.text()).toBe("");
    const stale = await call(`/api/files/${file.id}`, {
      token: warga.token,
      headers: { "If-None-Match": '"x"' },
    });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  it("reads follow the purpose: proof of payment for its uploader and finance only, 404 for others", async () => {
    const { body } = await postFile("/api/files", {
      token: warga.token,
      bytes: CLEAN_PNG,
      name: "bukti.png",
      type: "image/png",
      fields: { purpose: "bukti_bayar" },
    });
    const id = (body as StoredFile).id;
    const status = async (token: string) => {
      const res = await call(`/api/files/${id}`, { token });
      await res.arrayBuffer();
      return res.status;
    };
    expect(await status(bendahara.token)).toBe(200);
    expect(await status(neighbour.token)).toBe(404);
    expect(await status(sekretaris.token)).toBe(404);
    expect(await status((await other.member("bendahara")).token)).toBe(404);
  });

  it("a cover uploaded by staff is open to every member; a receipt only finance may upload", async () => {
    const cover = await postFile("/api/files", {
      token: sekretaris.token,
      bytes: webpFromPhone(),
      name: "sampul.webp",
      type: "image/webp",
      fields: { purpose: "sampul" },
    });
    expect(cover.status).toBe(201);
    const read = await call(`/api/files/${(cover.body as StoredFile).id}`, { token: neighbour.token });
    expect(read.status).toBe(200);
    expect(await bytesOf(read)).toEqual(CLEAN_WEBP);

    const refused = await postFile("/api/files", {
      token: warga.token,
      bytes: CLEAN_PNG,
      name: "nota.png",
      type: "image/png",
      fields: { purpose: "nota" },
    });
    expectProblem(refused, 403, "forbidden_purpose");
    const gallery = await postFile("/api/files", {
      token: sekretaris.token,
      bytes: CLEAN_PNG,
      name: "galeri.png",
      type: "image/png",
      fields: { purpose: "galeri" },
    });
    expectProblem(gallery, 403, "forbidden_purpose");
    const receipt = await postFile("/api/files", {
      token: bendahara.token,
      bytes: CLEAN_PNG,
      name: "nota.png",
      type: "image/png",
      fields: { purpose: "nota" },
    });
    expect(receipt.status).toBe(201);
  });

  it("refuses bad input: no purpose, unknown purpose, no file, not an image, too large, truncated", async () => {
    const png = { bytes: CLEAN_PNG, name: "a.png", type: "image/png" };
    expectProblem(await postFile("/api/files", { token: warga.token, ...png }), 400, "invalid_input");
    expectProblem(
      await postFile("/api/files", { token: warga.token, ...png, fields: { purpose: "ktp" } }),
      400,
      "invalid_input",
    );
    expectProblem(
      await postFile("/api/files", {
        token: warga.token,
        ...png,
        field: "foto",
        fields: { purpose: "pasar" },
      }),
      400,
      "file_missing",
    );
    const html = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");
    expectProblem(
      await postFile("/api/files", {
        token: warga.token,
        bytes: html,
        name: "x.png",
        type: "image/png",
        fields: { purpose: "pasar" },
      }),
      415,
      "unsupported_image_type",
    );
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(CLEAN_PNG);
    expectProblem(
      await postFile("/api/files", { token: warga.token, ...png, bytes: big, fields: { purpose: "pasar" } }),
      413,
      "file_too_large",
    );
    expectProblem(
      await postFile("/api/files", {
        token: warga.token,
        bytes: CLEAN_JPEG.subarray(0, 300),
        name: "rusak.jpg",
        type: "image/jpeg",
        fields: { purpose: "pasar" },
      }),
      400,
      "image_unreadable",
    );
    const json = await callJson("/api/files", { token: warga.token, body: { purpose: "pasar" } });
    expectProblem(json, 415, "not_multipart");
  });

  it("marketplace photos need the pasar feature: 403 feature_disabled when it is off", async () => {
    const rt = await createTenant();
    const member = await rt.member("warga");
    const png = { bytes: CLEAN_PNG, name: "a.png", type: "image/png", fields: { purpose: "pasar" } };
    const stored = await postFile("/api/files", { token: member.token, ...png });
    expect(stored.status).toBe(201);
    await setTenantFlags(rt, { pasar: false });
    expectProblem(await postFile("/api/files", { token: member.token, ...png }), 403, "feature_disabled");
    const read = await callJson(`/api/files/${(stored.body as StoredFile).id}`, { token: member.token });
    expectProblem(read, 403, "feature_disabled");
  });

  it("requireTenantFile: other tenants' and other uploaders' ids are 404, a wrong purpose 400", async () => {
    const mine = (
      await postFile("/api/files", {
        token: warga.token,
        bytes: CLEAN_PNG,
        name: "a.png",
        type: "image/png",
        fields: { purpose: "bukti_bayar" },
      })
    ).body as StoredFile;
    const foreignMember = await other.member("warga");
    const foreign = (
      await postFile("/api/files", {
        token: foreignMember.token,
        bytes: CLEAN_PNG,
        name: "a.png",
        type: "image/png",
        fields: { purpose: "bukti_bayar" },
      })
    ).body as StoredFile;
    const ctx = await memberCtx(tenant.slug, bendahara, "bendahara");

    await expect(requireTenantFile(ctx, mine.id, { purposes: ["bukti_bayar"] })).resolves.toMatchObject({
      id: mine.id,
      uploadedBy: warga.id,
    });
    await expect(
      requireTenantFile(ctx, mine.id, { purposes: ["bukti_bayar"], ownedBy: warga.id }),
    ).resolves.toMatchObject({ id: mine.id });
    await expect(requireTenantFile(ctx, foreign.id, { purposes: ["bukti_bayar"] })).rejects.toMatchObject({
      code: "file_not_found",
    });
    await expect(
      requireTenantFile(ctx, mine.id, { purposes: ["bukti_bayar"], ownedBy: neighbour.id }),
    ).rejects.toMatchObject({ code: "file_not_found" });
    await expect(
      requireTenantFile(ctx, mine.id, { purposes: ["nota", "lampiran_kas"], field: "receiptFileId" }),
    ).rejects.toMatchObject({
      code: "invalid_file_purpose",
      extra: { errors: [{ field: "receiptFileId", message: "purpose is bukti_bayar" }] },
    });
    const crossTenant = await call(`/api/files/${foreign.id}`, { token: bendahara.token });
    expect(crossTenant.status).toBe(404);
  });
});
