import { describe, expect, it } from "vitest";
import { signAccessToken } from "../../../src/core/auth/tokens";
import { loadConfig } from "../../../src/core/env";
import { signPass } from "../../../src/modules/visitor/pass";
import { guestPassUrl } from "../../../src/modules/visitor/pass-link";
import { tenantD1 } from "../../helpers/d1";
import {
  bindings,
  call,
  callJson,
  createTenant,
  setTenantFlags,
  type TestTenant,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { GUEST_PAPERS } from "./factories";

/** Issue 42 item 3: the approval email's "Kode QR" link opens the guest's pass. */

interface VisitorBody {
  id: string;
  pass: string | null;
  passCode: string | null;
}

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
let unitSeq = 0;

async function approved(tenant: TestTenant, decision: Record<string, unknown> = {}) {
  unitSeq += 1;
  const warga = await tenant.member("warga", {
    unitId: `pass-unit-${unitSeq}`,
    whatsapp: `62815${String(unitSeq).padStart(7, "0")}`,
  });
  const sek = await tenant.member("sekretaris");
  const created = await callJson<VisitorBody>("/api/visitor", {
    token: warga.token,
    body: {
      guestName: "Andi Wijaya",
      purpose: "Arisan keluarga",
      ...GUEST_PAPERS,
      visitAt: inHours(0.5),
      vehiclePlate: "B 1234 XYZ",
    },
  });
  expect(created.status).toBe(201);
  const decided = await callJson<VisitorBody>(`/api/visitor/${created.body.id}`, {
    method: "PUT",
    token: sek.token,
    body: { status: "disetujui", ...decision },
  });
  expect(decided.status).toBe(200);
  return {
    warga,
    sek,
    id: decided.body.id,
    pass: decided.body.pass ?? "",
    passCode: decided.body.passCode ?? "",
  };
}

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await call(path, { headers });
  return {
    status: res.status,
    cache: res.headers.get("Cache-Control"),
    language: res.headers.get("Content-Language"),
    html: await res.text(),
  };
}

const passPath = (pass: string) => `/tamu/${encodeURIComponent(pass)}`;

describe("the guest's pass link", () => {
  it("is the signed pass, not the request id, and opens a page with the QR, guest, visit, community and state", async () => {
    const tenant = await createTenant();
    const { warga, id, pass, passCode } = await approved(tenant);
    const [email] = await queuedMessages({ recipient: warga.email, template: "VISITOR_APPROVED" });
    const links = JSON.stringify(email?.payload).match(/https?:\/\/[^\s"<\\]+\/tamu\/[^\s"<\\]+/g) ?? [];
    const link = guestPassUrl(loadConfig(bindings), pass);
    // The button and the text part both carry it.
    expect(links.length).toBeGreaterThan(0);
    expect(new Set(links)).toEqual(new Set([link]));
    expect(link).not.toContain(id);

    const res = await page(new URL(link).pathname);
    expect(res.status).toBe(200);
    expect(res.cache).toBe("no-store");
    expect(res.language).toBe("id");
    expect(res.html).toContain('<html lang="id">');
    expect(res.html).toContain('data-state="valid"');
    expect(res.html).toContain("tunjukkan kode QR ini");
    expect(res.html).toMatch(/<div class="qr"[^>]*><svg/);
    // The short code the guest tells the guard when the QR will not scan (the resident's app shows it too).
    expect(passCode).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(res.html).toContain(`<strong>${passCode}</strong>`);
    expect(res.html).toContain("Andi Wijaya");
    expect(res.html).toContain("RT Uji");
    expect(res.html).toContain("WIB");
    // Forwarded to the guest: nothing of the resident's request beyond the guest's own pass.
    expect(res.html).not.toContain("Arisan keluarga");
    expect(res.html).not.toContain("B 1234 XYZ");
    expect(res.html).not.toContain("<script");

    const english = await page(`${passPath(pass)}?lang=en`);
    expect(english.language).toBe("en");
    expect(english.html).toContain("show this QR code to the guard");
    const byHeader = await page(passPath(pass), { "Accept-Language": "en-US,en;q=0.9" });
    expect(byHeader.html).toContain("Guest pass");
  });

  it("says used once the guest checked in, expired past its window, declined once revoked; no QR then", async () => {
    const tenant = await createTenant();
    const used = await approved(tenant);
    const checkIn = await callJson("/api/visitor/gate/check-in", {
      token: used.sek.token,
      body: { qr: used.pass },
    });
    expect(checkIn.status).toBe(200);
    const usedPage = await page(passPath(used.pass));
    expect(usedPage.status).toBe(200);
    expect(usedPage.html).toContain('data-state="used"');
    expect(usedPage.html).toContain("Sudah dipakai");
    expect(usedPage.html).not.toContain("<svg");
    expect(usedPage.html).not.toContain(used.passCode);

    const expired = await approved(tenant, { validFrom: inHours(-5), validUntil: inHours(-1) });
    const expiredPage = await page(passPath(expired.pass));
    expect(expiredPage.html).toContain('data-state="expired"');
    expect(expiredPage.html).toContain("Kedaluwarsa");
    expect(expiredPage.html).not.toContain("<svg");

    const revoked = await approved(tenant);
    await tenantD1(tenant)
      .prepare(
        "UPDATE visitors SET status = 'ditolak', pass_valid_from = NULL, pass_valid_until = NULL WHERE id = ?",
      )
      .bind(revoked.id)
      .run();
    const declined = await page(passPath(revoked.pass));
    expect(declined.html).toContain('data-state="declined"');
    expect(declined.html).toContain("Ditolak");
    expect(declined.html).not.toContain("<svg");
  });

  it("answers a 404 page, never a 500, for malformed, forged, foreign or other-purpose tokens", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const { id, pass } = await approved(tenant);
    const config = loadConfig(bindings);
    const [header, payload] = pass.split(".");
    const window = { validFrom: inHours(-1), validUntil: inHours(5), issuedAt: new Date().toISOString() };
    const candidates = {
      garbage: "abc",
      percent: "%25%25%25",
      threeParts: "a.b.c",
      forged: `${header}.${payload}.${"A".repeat(43)}`,
      // Wrong tenant: a real signature, but the other community holds no such request.
      otherTenant: await signPass(config, { ...window, tenant: other.slug, visitorId: id }),
      unknownTenant: await signPass(config, { ...window, tenant: "no-such-rt", visitorId: id }),
      unknownVisitor: await signPass(config, {
        ...window,
        tenant: tenant.slug,
        visitorId: "01HZZZZZZZZZZZZZZZZZZZZZZZ",
      }),
      accessToken: await signAccessToken(config, {
        sub: id,
        tenant: tenant.slug,
        roles: [],
        resident: true,
        sid: "x",
      }),
    };
    for (const [name, token] of Object.entries(candidates)) {
      const res = await page(passPath(token));
      expect(res.status, name).toBe(404);
      expect(res.html, name).toContain("Kartu tamu tidak ditemukan");
    }
    // Over the declared length it is invalid input (the schema says so), still no 500.
    expect((await call(passPath("a".repeat(2001)))).status).toBe(400);
  });

  it("says the pass is unavailable while the community's guest book is switched off", async () => {
    const tenant = await createTenant();
    const { pass } = await approved(tenant);
    await setTenantFlags(tenant, { tamu: false });
    const off = await page(passPath(pass));
    expect(off.status).toBe(403);
    expect(off.html).toContain("Kartu tamu tidak tersedia");
    expect(off.html).not.toContain("Andi Wijaya");
  });
});
