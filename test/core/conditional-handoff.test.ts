import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { bodyDigest } from "../../src/core/http/etag";
import worker from "../../src/index";
import { countingD1, tenantD1 } from "../helpers/d1";
import { bindings, call, callJson, createTenant, type Member, type TestTenant } from "../helpers/harness";

/**
 * A versioned GET whose handler reads its row by id (`rowById`) takes the ETag's version from that
 * very read once it has seen the handler do so (ADR 0035, "Update"): no read of the version ahead of
 * the handler, and a tag never newer than its body. A GET that did not hand the version over (a 404)
 * answers without an ETag and the next one reads ahead again.
 */

const VERSION_READ = /SELECT "row_version" AS v FROM "units"/;

async function get(tenant: TestTenant, who: Member, path: string) {
  const slot = `TENANT_DB_${String(tenant.slot).padStart(2, "0")}`;
  const trips: string[][] = [];
  const env = { ...bindings, [slot]: countingD1(tenantD1(tenant), trips) } as typeof bindings;
  const res = await worker.fetch(
    new Request(`http://api.test${path}`, { headers: { Authorization: `Bearer ${who.token}` } }),
    env,
    createExecutionContext(),
  );
  const versionReads = trips.flat().filter((sql) => VERSION_READ.test(sql)).length;
  return { status: res.status, etag: res.headers.get("ETag"), versionReads, body: await res.json() };
}

async function rowVersion(tenant: TestTenant, id: string): Promise<number> {
  const row = await tenantD1(tenant)
    .prepare("SELECT row_version AS v FROM units WHERE id = ?")
    .bind(id)
    .first<{ v: number }>();
  return row?.v ?? -1;
}

describe("a versioned GET takes its version from the handler's own read", () => {
  it("reads ahead until it has seen the handler hand the version over, then tags from that read", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const other = await createTenant();
    const otherSek = await other.member("sekretaris");
    const made = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: sek.token,
      body: { block: "H", number: "7" },
    });
    expect(made.status).toBe(201);
    const path = `/api/kependudukan/units/${made.body.id}`;
    // The runtime is shared with the other test files (isolate: false), which may already have taught it
    // this resource. A GET that hands no version over (another community's id: 404) makes it read ahead
    // again, whichever state it was in.
    expect((await get(other, otherSek, path)).status).toBe(404);

    const first = await get(tenant, sek, path);
    expect(first.status).toBe(200);
    expect(first.versionReads).toBe(1);
    expect(first.etag).toMatch(new RegExp(`^"${await rowVersion(tenant, made.body.id)}-[0-9a-f]{16}"$`));

    const second = await get(tenant, sek, path);
    expect(second.versionReads).toBe(0);
    expect(second.etag).toBe(first.etag);

    // Moved under the API (a job, another request): the next tag is the row's new version.
    await tenantD1(tenant).prepare("UPDATE units SET number = '8' WHERE id = ?").bind(made.body.id).run();
    const moved = await get(tenant, sek, path);
    expect(moved.versionReads).toBe(0);
    expect(moved.body).toMatchObject({ number: "8" });
    expect(moved.etag).toMatch(new RegExp(`^"${await rowVersion(tenant, made.body.id)}-[0-9a-f]{16}"$`));
    expect(moved.etag).not.toBe(first.etag);

    // Another community's id: 404 without a tag; the GET after it reads ahead again, and tags rightly.
    const foreign = await get(other, otherSek, path);
    expect(foreign.status).toBe(404);
    expect(foreign.etag).toBeNull();
    const again = await get(tenant, sek, path);
    expect(again.versionReads).toBe(1);
    expect(again.etag).toBe(moved.etag);
  });
});

describe("the tag's digest", () => {
  it("moves with any byte of the body, in either lane, and is 16 hex digits", () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    const base = bodyDigest(encode('{"id":"u1","number":"7","tally":[3,4]}'));
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    const variants = ['{"id":"u1","number":"7","tally":[3,5]}', '{"id":"u1","number":"8","tally":[3,4]}', ""];
    for (const text of variants) {
      const other = bodyDigest(encode(text));
      expect(other.slice(0, 8)).not.toBe(base.slice(0, 8));
      expect(other.slice(8)).not.toBe(base.slice(8));
    }
    expect(bodyDigest(encode('{"id":"u1","number":"7","tally":[3,4]}'))).toBe(base);
  });

  it("is of the very bytes answered, on a read and on a write (hashed from the JSON text, not a copy)", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const made = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: sek.token,
      body: { block: "J", number: "3" },
    });
    const path = `/api/kependudukan/units/${made.body.id}`;
    for (let i = 0; i < 2; i++) {
      const read = await call(path, { token: sek.token });
      const tag = read.headers.get("ETag");
      expect(tag).toBe(
        `"${await rowVersion(tenant, made.body.id)}-${await bodyDigest(new Uint8Array(await read.arrayBuffer()))}"`,
      );
    }
    const written = await call(path, {
      method: "PUT",
      token: sek.token,
      body: { number: "4" },
      headers: { "If-Match": (await call(path, { token: sek.token })).headers.get("ETag") ?? "" },
    });
    expect(written.status).toBe(200);
    const tag = written.headers.get("ETag");
    expect(tag).toBe(
      `"${await rowVersion(tenant, made.body.id)}-${await bodyDigest(new Uint8Array(await written.arrayBuffer()))}"`,
    );
  });
});
