import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { bodyDigest } from "../../src/platform/conditional/etag";
import { countingD1, tenantD1 } from "../helpers/d1";
import { bindings, call, callJson, createTenant, type Member, type TestTenant } from "../helpers/harness";

/**
 * A versioned GET whose handler reads its row by id (`rowById`) takes the ETag's version from that
 * very read (ADR 0035, "Update"; ADR 0048): no read of the version ahead of the handler, and a tag
 * never newer than its body. The read hands the version to the request's own scope, bound into the
 * context's database handle; nothing is learnt per isolate, so every GET is answered the same way
 * whatever ran before it in the isolate, and a GET that did not hand the version over (a 404) answers
 * without an ETag and changes nothing for the next.
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
  it("tags from the handler's own read from the first GET on, with no read of the version ahead", async () => {
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

    const first = await get(tenant, sek, path);
    expect(first.status).toBe(200);
    expect(first.versionReads).toBe(0);
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

    // Another community's id: 404 without a tag; the GET after it is answered just as before.
    const foreign = await get(other, otherSek, path);
    expect(foreign.status).toBe(404);
    expect(foreign.etag).toBeNull();
    const again = await get(tenant, sek, path);
    expect(again.versionReads).toBe(0);
    expect(again.etag).toBe(moved.etag);
  });
});

describe("the order of requests in an isolate does not matter (ADR 0048)", () => {
  /** A fresh unit, and a PUT of it under `If-Match`, with or without a GET of it having run first. */
  async function putAfter(readFirst: boolean, stale: boolean) {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const made = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: sek.token,
      body: { block: "K", number: "1" },
    });
    const path = `/api/kependudukan/units/${made.body.id}`;
    const version = await rowVersion(tenant, made.body.id);
    let readTag: string | null = null;
    if (readFirst) {
      const read = await get(tenant, sek, path);
      expect(read.versionReads).toBe(0);
      readTag = read.etag;
    }
    const tag = `"${stale ? version + 5 : version}-0000000000000000"`;
    const put = await callJson<{ number: string }>(path, {
      method: "PUT",
      token: sek.token,
      body: { number: "2" },
      headers: { "If-Match": tag },
    });
    const after = await get(tenant, sek, path);
    return {
      status: put.status,
      code: (put.body as { code?: string }).code ?? null,
      moved: (await rowVersion(tenant, made.body.id)) - version,
      tagged: put.headers.get("ETag") !== null,
      readTagged: readTag !== null,
      afterReads: after.versionReads,
      afterTagged: after.etag !== null,
    };
  }

  it.each([false, true])(
    "a PUT with If-Match is answered the same with or without a GET first (stale: %s)",
    async (stale) => {
      const plain = await putAfter(false, stale);
      const afterGet = await putAfter(true, stale);
      expect(afterGet).toEqual({ ...plain, readTagged: true });
      expect(plain.status).toBe(stale ? 412 : 200);
      expect(plain.moved).toBe(stale ? 0 : 1);
      expect(plain.afterTagged).toBe(true);
      expect(plain.afterReads).toBe(0);
    },
  );

  it("a GET that handed no version over (a 404) changes nothing for the next GET of any resource", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const made = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: sek.token,
      body: { block: "L", number: "1" },
    });
    const path = `/api/kependudukan/units/${made.body.id}`;
    const before = await get(tenant, sek, path);
    for (let i = 0; i < 3; i++) {
      expect((await get(tenant, sek, "/api/kependudukan/units/01HZZZZZZZZZZZZZZZZZZZZZZZ")).status).toBe(404);
    }
    const after = await get(tenant, sek, path);
    expect(after).toEqual(before);
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
