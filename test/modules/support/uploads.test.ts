import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES, sniffImageType } from "../../../src/core/files";
import { bindings, call, callJson, expectProblem, operatorToken } from "../../helpers/harness";
import {
  HTML,
  JPEG,
  openTicket,
  PNG,
  pathOf,
  sized,
  type TicketView,
  tenantWithAdmin,
  upload,
  WEBP,
} from "./helpers";

const TENANT_UPLOAD = "/api/uploads/resident-image?kind=support-ticket";
const PLATFORM_UPLOAD = "/api/platform/uploads/support-image";

describe("image uploads", () => {
  it("recognises JPEG, PNG and WebP by their first bytes only", () => {
    expect(sniffImageType(JPEG)).toBe("image/jpeg");
    expect(sniffImageType(PNG)).toBe("image/png");
    expect(sniffImageType(WEBP)).toBe("image/webp");
    expect(sniffImageType(HTML)).toBeNull();
    expect(sniffImageType(new Uint8Array([0xff, 0xd8]))).toBeNull();
  });

  it("accepts a PNG renamed .jpg and stores it in R2 under the tenant's prefix as image/png", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const res = await upload(TENANT_UPLOAD, {
      token: admin.token,
      bytes: PNG,
      name: "bukti.jpg",
      type: "image/jpeg",
    });
    expect(res.status).toBe(201);
    expect(String(res.body.url)).toMatch(/\/api\/support-files\/[0-9A-Z]{26}$/);
    const listed = await bindings.FILES.list({ prefix: `tenants/${tenant.id}/support/` });
    expect(listed.objects).toHaveLength(1);
    const object = await bindings.FILES.get(listed.objects[0]?.key ?? "");
    expect(object?.httpMetadata?.contentType).toBe("image/png");
    await object?.arrayBuffer();
    const served = await call(pathOf(String(res.body.url)), { token: admin.token });
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
  });

  it("refuses an HTML file renamed .png with 415", async () => {
    const { admin } = await tenantWithAdmin();
    const res = await upload(TENANT_UPLOAD, {
      token: admin.token,
      bytes: HTML,
      name: "foto.png",
      type: "image/png",
    });
    expectProblem(res, 415, "unsupported_image_type");
  });

  it("takes exactly 5 MB and refuses 5 MB + 1 byte with 413", async () => {
    const { admin } = await tenantWithAdmin();
    const ok = await upload(TENANT_UPLOAD, {
      token: admin.token,
      bytes: sized(JPEG, MAX_IMAGE_BYTES),
      name: "besar.jpg",
      type: "image/jpeg",
    });
    expect(ok.status).toBe(201);
    const tooBig = await upload(TENANT_UPLOAD, {
      token: admin.token,
      bytes: sized(JPEG, MAX_IMAGE_BYTES + 1),
      name: "kebesaran.jpg",
      type: "image/jpeg",
    });
    expectProblem(tooBig, 413, "file_too_large");
    const operatorTooBig = await upload(PLATFORM_UPLOAD, {
      token: await operatorToken(),
      bytes: sized(PNG, MAX_IMAGE_BYTES + 1),
      name: "x.png",
      type: "image/png",
    });
    expectProblem(operatorTooBig, 413, "file_too_large");
  });

  it("refuses a declared Content-Length over the limit before reading the body", async () => {
    const { admin } = await tenantWithAdmin();
    const res = await exports.default.fetch(
      new Request(`http://api.test${TENANT_UPLOAD}`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${admin.token}`,
          "Content-Type": "multipart/form-data; boundary=x",
          "Content-Length": String(MAX_IMAGE_BYTES * 2),
        },
        body: "--x--",
      }),
    );
    expect(res.status).toBe(413);
  });

  it("wants the file in the field `file`, as multipart, with kind=support-ticket", async () => {
    const { admin } = await tenantWithAdmin();
    expectProblem(
      await upload(TENANT_UPLOAD, {
        token: admin.token,
        bytes: PNG,
        name: "a.png",
        type: "image/png",
        field: "gambar",
      }),
      400,
      "file_missing",
    );
    expectProblem(
      await callJson(TENANT_UPLOAD, { token: admin.token, body: { file: "x" } }),
      415,
      "not_multipart",
    );
    expectProblem(
      await upload("/api/uploads/resident-image?kind=surat", {
        token: admin.token,
        bytes: PNG,
        name: "a.png",
        type: "image/png",
      }),
      400,
      "invalid_input",
    );
  });

  it("stores operator uploads under the platform prefix", async () => {
    const res = await upload(PLATFORM_UPLOAD, {
      token: await operatorToken(),
      bytes: WEBP,
      name: "a.webp",
      type: "image/webp",
    });
    expect(res.status).toBe(201);
    const listed = await bindings.FILES.list({ prefix: "platform/support/" });
    expect(
      listed.objects.some((o) => String(res.body.url).endsWith(o.key.split("/").pop()?.split(".")[0] ?? "-")),
    ).toBe(true);
  });
});

describe("attachments and the access-checked file route", () => {
  it("attaches an own upload to a new ticket; the ticket's staff and operators see it, another tenant gets 404", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const other = await tenantWithAdmin();
    const up = await upload(TENANT_UPLOAD, {
      token: admin.token,
      bytes: JPEG,
      name: "a.jpg",
      type: "image/jpeg",
    });
    const ticket = await openTicket(admin, { attachment_url: up.body.url });
    expect(ticket.attachment_url).toBe(up.body.url);
    const path = pathOf(String(up.body.url));
    expect((await call(path, { token: admin.token })).status).toBe(200);
    // Every staff duty of the ticket's tenant (spec: S), and none of its residents.
    expect((await call(path, { token: (await tenant.member("bendahara")).token })).status).toBe(200);
    expectProblem(await callJson(path, { token: (await tenant.member("warga")).token }), 404, "not_found");
    expect((await call(path, { token: await operatorToken() })).status).toBe(200);
    expectProblem(await callJson(path, { token: other.admin.token }), 404, "not_found");
    const sekretaris = await (await tenantWithAdmin()).tenant.member("sekretaris");
    expectProblem(await callJson(path, { token: sekretaris.token }), 404, "not_found");
    expect((await call(path)).status).toBe(401);
  });

  it("hides a tenant's files from its admin while the tenant is suspended", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const up = await upload(TENANT_UPLOAD, {
      token: admin.token,
      bytes: PNG,
      name: "a.png",
      type: "image/png",
    });
    const path = pathOf(String(up.body.url));
    expect((await call(path, { token: admin.token })).status).toBe(200);
    const token = await operatorToken();
    const status = (value: string) =>
      callJson(`/api/platform/tenants/${tenant.id}`, { method: "PATCH", token, body: { status: value } });
    expect((await status("suspended")).status).toBe(200);
    expectProblem(await callJson(path, { token: admin.token }), 404, "not_found");
    expect((await call(path, { token })).status).toBe(200);
    expect((await status("active")).status).toBe(200);
    expect((await call(path, { token: admin.token })).status).toBe(200);
  });

  it("refuses attaching someone else's upload, or one already attached, with 400", async () => {
    const { admin } = await tenantWithAdmin();
    const other = await tenantWithAdmin();
    const theirs = await upload(TENANT_UPLOAD, {
      token: other.admin.token,
      bytes: PNG,
      name: "a.png",
      type: "image/png",
    });
    const res = await callJson("/api/support-tickets", {
      token: admin.token,
      body: {
        category: "teknis",
        title: "Lampiran orang lain",
        detail: "x x x",
        attachment_url: theirs.body.url,
      },
    });
    expectProblem(res, 400, "invalid_attachment");
    const operators = await upload(PLATFORM_UPLOAD, {
      token: await operatorToken(),
      bytes: PNG,
      name: "o.png",
      type: "image/png",
    });
    expectProblem(
      await callJson("/api/support-tickets", {
        token: admin.token,
        body: {
          category: "teknis",
          title: "Lampiran operator",
          detail: "x x x",
          attachment_url: operators.body.url,
        },
      }),
      400,
      "invalid_attachment",
    );
    const mine = await upload(TENANT_UPLOAD, {
      token: admin.token,
      bytes: PNG,
      name: "m.png",
      type: "image/png",
    });
    await openTicket(admin, { attachment_url: mine.body.url });
    expectProblem(
      await callJson("/api/support-tickets", {
        token: admin.token,
        body: { category: "teknis", title: "Dua kali", detail: "x x x", attachment_url: mine.body.url },
      }),
      400,
      "invalid_attachment",
    );
    expectProblem(
      await callJson("/api/support-tickets", {
        token: admin.token,
        body: {
          category: "teknis",
          title: "Bukan URL",
          detail: "x x x",
          attachment_url: "https://evil.example/x.png",
        },
      }),
      400,
      "invalid_attachment",
    );
  });

  it("attaches images to console replies and operator responses as lampiran_url", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin);
    const mine = await upload(TENANT_UPLOAD, {
      token: admin.token,
      bytes: PNG,
      name: "m.png",
      type: "image/png",
    });
    const reply = await callJson<TicketView>(`/api/support-tickets/${ticket.id}/messages`, {
      token: admin.token,
      body: { message: "Ini tangkapan layarnya.", lampiran_url: mine.body.url },
    });
    expect(reply.body.messages[0]?.lampiran_url).toBe(mine.body.url);
    const token = await operatorToken();
    const ops = await upload(PLATFORM_UPLOAD, { token, bytes: JPEG, name: "o.jpg", type: "image/jpeg" });
    const res = await callJson<TicketView>(`/api/platform/support-tickets/${ticket.id}`, {
      method: "PATCH",
      token,
      body: { message: "Lihat panduan ini.", lampiran_url: ops.body.url, status: "diproses" },
    });
    expect(res.status).toBe(200);
    expect(res.body.messages[1]?.lampiran_url).toBe(ops.body.url);
    // The tenant admin now sees the operator's image, because it belongs to their ticket.
    expect((await call(pathOf(String(ops.body.url)), { token: admin.token })).status).toBe(200);
    // An operator's upload cannot be attached by a tenant, even to their own ticket.
    const ops2 = await upload(PLATFORM_UPLOAD, { token, bytes: JPEG, name: "o.jpg", type: "image/jpeg" });
    expectProblem(
      await callJson(`/api/support-tickets/${ticket.id}/messages`, {
        token: admin.token,
        body: { message: "curang", lampiran_url: ops2.body.url },
      }),
      400,
      "invalid_attachment",
    );
    // Before it is attached, a tenant admin cannot see an operator's upload.
    expectProblem(await callJson(pathOf(String(ops2.body.url)), { token: admin.token }), 404, "not_found");
  });
});
