import { describe, expect, it } from "vitest";
import { tenantD1, withTrigger } from "../../helpers/d1";
import { callJson, createTenant, expectProblem } from "../../helpers/harness";

/** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

describe("a complaint whose batch fails at its last statement", () => {
  it("leaves neither the complaint nor its first thread entry, and answers an error", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const db = tenantD1(tenant);
    const title = `Gagal ${tenant.slug}`;
    // The thread's opening entry is the batch's last statement; the complaint before it is in the batch.
    const res = await withTrigger(
      db,
      `fail_complaint_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON complaint_messages
         WHEN NEW.complaint_id IN (SELECT id FROM complaints WHERE title = '${title}')
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson("/api/pengaduan", {
          token: warga.token,
          body: { title, description: "Lampu di depan blok C mati", category: "infrastruktur" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const left = await db.prepare("SELECT COUNT(*) AS n FROM complaints WHERE title = ?").bind(title).first();
    expect(left?.n).toBe(0);
    const mine = await callJson<{ items: unknown[] }>("/api/pengaduan/mine", { token: warga.token });
    expect(mine.body.items).toEqual([]);
  });
});
