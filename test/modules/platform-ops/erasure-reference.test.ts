import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../src/core/ids";
import { callJson, createTenant, operatorToken } from "../../helpers/harness";

interface Erasure {
  reference: string;
  rows: Record<string, number>;
}

interface Trail {
  items: { action: string; targetId: string | null; detail: unknown }[];
}

const erase = async (tenantId: string, userId: string) =>
  callJson<Erasure>(`/api/platform/tenants/${tenantId}/erasures`, {
    token: await operatorToken(),
    body: { userId },
  });

/** Issue 31 ("Also"): the reference that replaces an erased person's id cannot be recomputed from the ids. */
describe("an erased person's reference", () => {
  it("is random (not a hash of tenant and user id), stable on a repeat, and different in another tenant", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const person = await tenant.member("warga");
    const saran = await callJson("/api/saran", {
      token: person.token,
      body: { body: "Mohon lampu taman diperbaiki", anonymous: false },
    });
    expect(saran.status).toBe(201);

    const first = await erase(tenant.id, person.id);
    expect(first.status).toBe(200);
    expect(first.body.reference).toMatch(/^erased:[0-9a-f]{16}$/);
    expect(first.body.rows["suggestions.sender_id"]).toBeGreaterThan(0);
    const recomputed = `erased:${(await sha256Hex(`${tenant.id}:${person.id}`)).slice(0, 16)}`;
    expect(first.body.reference).not.toBe(recomputed);

    const again = await erase(tenant.id, person.id);
    expect(again.body).toEqual({ reference: first.body.reference, rows: {} });
    const elsewhere = await erase(other.id, person.id);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.reference).not.toBe(first.body.reference);
  });

  it("is never shown next to the account id in the tenant admin's audit trail", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const person = await tenant.member("warga");
    const { body } = await erase(tenant.id, person.id);

    const trail = await callJson<Trail>("/api/audit?limit=100", { token: admin.token });
    expect(trail.status).toBe(200);
    const erasures = trail.body.items.filter((item) => item.action === "personal_data.erased");
    expect(erasures.map((item) => item.targetId)).toEqual([body.reference]);
    for (const item of trail.body.items) {
      const text = JSON.stringify(item);
      expect(text.includes(person.id) && text.includes(body.reference)).toBe(false);
    }
  });
});
