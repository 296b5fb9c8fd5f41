import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships } from "../../src/core/db/identity-schema";
import { platformDb } from "../../src/core/db/platform";
import { MAX_IMAGE_BYTES } from "../../src/core/files";
import { newId } from "../../src/core/ids";
import { addDays } from "../../src/core/time";
import { jakartaTime, setNow } from "../helpers/clock";
import {
  bindings,
  createTenant,
  ENGLISH,
  expectProblem,
  login,
  type Member,
  type TestTenant,
} from "../helpers/harness";
import { CLEAN_PNG } from "../modules/galeri-pasar/images";
import { postFile } from "../modules/galeri-pasar/post";
import { household, request, sampleFields } from "../modules/surat/helpers";

/**
 * Issue 35's quotas that live outside aspirasi and visitor: upload bytes per day (platform/uploads/limits.ts)
 * and letter requests per day (surat/limits.ts). ADR 0033 gives the numbers.
 */

/** A real PNG padded after IEND to `size` bytes: the quota counts what was sent, the store keeps less. */
function pngOf(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(CLEAN_PNG);
  return bytes;
}

const upload = (token: string, size: number, purpose = "pengaduan", headers?: Record<string, string>) =>
  postFile("/api/files", {
    token,
    bytes: pngOf(size),
    name: "bukti.png",
    type: "image/png",
    fields: { purpose },
    headers,
  });

/** Uploads `n` images of the largest size allowed (5 MiB); returns the statuses. */
async function fullUploads(token: string, n: number, purpose?: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    statuses.push((await upload(token, MAX_IMAGE_BYTES, purpose)).status);
  }
  return statuses;
}

async function alsoMemberOf(tenant: TestTenant, member: Member): Promise<string> {
  await platformDb(bindings)
    .insert(memberships)
    .values({ id: newId(), userId: member.id, tenantId: tenant.id, roles: [], unitId: null });
  return login(member.email, tenant.slug);
}

describe("the upload quota: 50 MB a member a day (issue 35)", () => {
  it("ten 5 MiB photos fit, the eleventh is 429 naming the quota, and a day later there is room again", async () => {
    const day = jakartaTime("2026-12-20", 9);
    setNow(day);
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    expect(await fullUploads(warga.token, 10)).toEqual(Array(10).fill(201));
    expectProblem(await upload(warga.token, 1000), 429, "rate_limited");
    // The English detail names the quota (the Indonesian one, the default, says the code's sentence).
    const refused = await upload(warga.token, 1000, "pengaduan", ENGLISH);
    expectProblem(refused, 429, "rate_limited");
    const detail = (refused.body as { detail: string }).detail;
    expect(detail).toContain("50 MB of uploads per member per day");
    expect(detail).toContain("files-bytes:member");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(86_400 - 300);
    setNow(addDays(day, 1.01));
    expect((await upload(warga.token, MAX_IMAGE_BYTES)).status).toBe(201);
  });

  it("counts bytes, not files: many small photos fit where one more large one does not", async () => {
    setNow(jakartaTime("2026-12-21", 9));
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    expect(await fullUploads(warga.token, 9)).toEqual(Array(9).fill(201));
    // 45 MiB spent: a 5 MiB photo no longer fits, a 3 MiB one does, then 2 MiB are left.
    expect((await upload(warga.token, 3 * 1024 * 1024)).status).toBe(201);
    expectProblem(await upload(warga.token, 3 * 1024 * 1024), 429, "rate_limited");
    expect((await upload(warga.token, 1024 * 1024)).status).toBe(201);
  });

  it("staff uploading receipts for the cash book are not counted", async () => {
    setNow(jakartaTime("2026-12-22", 9));
    const tenant = await createTenant();
    const bendahara = await tenant.member("bendahara");
    expect(await fullUploads(bendahara.token, 11, "nota")).toEqual(Array(11).fill(201));
  });

  it("a quota spent in one community leaves the member's quota in another whole", async () => {
    setNow(jakartaTime("2026-12-23", 9));
    const [a, b] = [await createTenant(), await createTenant()];
    const warga = await a.member("warga");
    const inB = await alsoMemberOf(b, warga);
    expect(await fullUploads(warga.token, 10)).toEqual(Array(10).fill(201));
    expectProblem(await upload(warga.token, 1000), 429, "rate_limited");
    expect(await fullUploads(inB, 1)).toEqual([201]);
  });
});

describe("the letter-request quota: 10 a member a day (issue 35)", () => {
  const ask = (token: string, headers?: Record<string, string>) =>
    request(
      token,
      {
        jenis: "domisili",
        onBehalfOf: "self",
        keperluan: "Melamar pekerjaan",
        fields: sampleFields("domisili"),
      },
      headers,
    );

  it("the eleventh request is 429 naming the quota; a day later there is room again", async () => {
    const day = jakartaTime("2026-12-24", 9);
    setNow(day);
    const h = await household(await createTenant());
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await ask(h.warga.token)).status);
    }
    expect(statuses).toEqual(Array(10).fill(201));
    expectProblem(await ask(h.warga.token), 429, "rate_limited");
    const refused = await ask(h.warga.token, ENGLISH);
    expectProblem(refused, 429, "rate_limited");
    expect((refused.body as unknown as { detail: string }).detail).toContain(
      "10 letter requests per member per day",
    );
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(86_400 - 300);
    setNow(addDays(day, 1.01));
    expect((await ask(h.warga.token)).status).toBe(201);
  });

  it("a secretary who lives there and prepares letters is not counted", async () => {
    setNow(jakartaTime("2026-12-25", 9));
    const h = await household(await createTenant());
    // The household's resident also holds the secretary's duty (signed in again to carry it).
    await platformDb(bindings)
      .update(memberships)
      .set({ roles: ["sekretaris"] })
      .where(eq(memberships.userId, h.warga.id));
    const sek = { token: await login(h.warga.email, h.tenant.slug) };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await ask(sek.token)).status);
    }
    expect(statuses).toEqual(Array(11).fill(201));
  });
});
