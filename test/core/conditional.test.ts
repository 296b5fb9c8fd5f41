import { eq, getTableName } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { beforeAll, describe, expect, it } from "vitest";
import { routeTable, versionedResources } from "../../src/app";
import type { TenantRole } from "../../src/core/context";
import { DbScope, d1Handle, withStatementFacts } from "../../src/core/db/handles";
import { tenantAuditLog } from "../../src/core/db/tenant-schema";
import { PreconditionFailed } from "../../src/core/errors";
import { tenantDb } from "../../src/core/tenancy/slots";
import { agenda } from "../../src/modules/konten/tables";
import { VersionedWrite } from "../../src/platform/conditional";
import { tenantD1 } from "../helpers/d1";
import { createWorld, type World } from "../helpers/factories";
import { bindings, call, callJson, expectProblem } from "../helpers/harness";
import { bodiesOf, CASES, type Case, paramsFor, TAG, urlsOf, versionOf } from "./conditional-cases";

/**
 * Conditional requests (issue 30 item 2, ADR 0035), walked over every versioned resource: the GET's
 * ETag and 304, a stale If-Match refused with 412 and nothing changed, the current one accepted with a
 * new ETag, the old one refused after that (the lost update), a write without If-Match still accepted,
 * and another tenant's id still 404 with no ETag. The cases are in conditional-cases.ts.
 */
let world: World;
beforeAll(async () => {
  world = await createWorld();
}, 60_000);

/** An object of the case's kind in A: where it is read and written, and the bodies that change it. */
async function objectOf(path: string, c: Case) {
  return { ...urlsOf(path, c, await paramsFor(world, path, c)), bodies: bodiesOf(world, c) };
}

function write(url: string, c: Case, body: unknown, ifMatch?: string) {
  return callJson(url, {
    method: c.write.method,
    token: world.a.as[c.write.as].token,
    body,
    headers: ifMatch === undefined ? {} : { "If-Match": ifMatch },
  });
}

describe("conditional requests over every versioned resource", () => {
  it("has a case for every versioned resource, each on a path of the route table", () => {
    const paths = new Set(routeTable.map((r) => r.path));
    expect(versionedResources.map((v) => v.path).filter((p) => !paths.has(p))).toEqual([]);
    expect(Object.keys(CASES).sort()).toEqual(versionedResources.map((v) => v.path).sort());
  });

  it("declares the headers and answers in /openapi.json for every operation of a versioned path", async () => {
    type Op = {
      parameters?: { name: string; in: string }[];
      responses: Record<string, { headers?: object }>;
    };
    const doc = (await (await call("/openapi.json")).json()) as { paths: Record<string, Record<string, Op>> };
    const ops = versionedResources.flatMap((v) =>
      Object.entries(doc.paths[v.path.replace(/:(\w+)/g, "{$1}")] ?? {}).map(([method, op]) => ({
        method,
        op,
      })),
    );
    expect(ops.length).toBeGreaterThanOrEqual(versionedResources.length);
    for (const { method, op } of ops.filter((o) => ["get", "put", "patch", "delete"].includes(o.method))) {
      const header = method === "get" ? "If-None-Match" : "If-Match";
      expect(
        op.parameters?.some((p) => p.name === header && p.in === "header"),
        `${method} ${header}`,
      ).toBe(true);
      expect(op.responses[method === "get" ? "304" : "412"], method).toBeDefined();
      if (method !== "delete") {
        const ok = Object.entries(op.responses).find(([code]) => /^2\d\d$/.test(code) && code !== "204");
        expect(ok?.[1].headers, method).toHaveProperty("ETag");
      }
    }
  });

  it.each(Object.entries(CASES).filter(([, c]) => c.read))(
    "%s: GET, 304, 412, the new ETag",
    async (path, c) => {
      const { read: url, write: target, bodies } = await objectOf(path, c);
      const reader = world.a.as[c.read as TenantRole].token;
      const first = await call(url, { token: reader });
      expect(first.status).toBe(200);
      const etag = first.headers.get("ETag") ?? "";
      expect(etag).toMatch(TAG);

      const again = await call(url, { token: reader, headers: { "If-None-Match": `"other", W/${etag}` } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("ETag")).toBe(etag);

      const stale = await write(target, c, bodies[0], `"${versionOf(etag) + 7}-0000000000000000"`);
      expectProblem(stale, 412, "precondition_failed");
      expect((await call(url, { token: reader })).headers.get("ETag")).toBe(etag);

      const applied = await write(target, c, bodies[0], etag);
      expect(applied.status, JSON.stringify(applied.body)).toBeLessThan(300);
      if (c.write.method === "DELETE") {
        expect((await call(url, { token: reader })).status).toBe(404);
        return;
      }
      const next = applied.headers.get("ETag");
      expect(versionOf(next)).toBeGreaterThan(versionOf(etag));
      expect(versionOf((await call(url, { token: reader })).headers.get("ETag"))).toBe(versionOf(next));

      // The lost update: a second writer still holding the first ETag.
      expectProblem(await write(target, c, bodies[0], etag), 412, "precondition_failed");
      if (bodies.length > 1) {
        const blind = await write(target, c, bodies[1]);
        expect(blind.status).toBeLessThan(300);
        expect(versionOf(blind.headers.get("ETag"))).toBeGreaterThan(versionOf(next));
      }
      expect((await call(url, { token: reader, headers: { "If-None-Match": etag } })).status).toBe(200);
    },
  );

  it.each(Object.entries(CASES).filter(([, c]) => !c.read))(
    "%s: the write answers the ETag",
    async (path, c) => {
      const { write: url, bodies } = await objectOf(path, c);
      const blind = await write(url, c, bodies[0]);
      expect(blind.status).toBeLessThan(300);
      const etag = blind.headers.get("ETag") ?? "";
      expect(etag).toMatch(TAG);
      expectProblem(await write(url, c, bodies[1], `"${versionOf(etag) - 1}"`), 412, "precondition_failed");
      const applied = await write(url, c, bodies[1], etag);
      expect(applied.status).toBeLessThan(300);
      expect(versionOf(applied.headers.get("ETag"))).toBeGreaterThan(versionOf(etag));
      expectProblem(await write(url, c, bodies[2], etag), 412, "precondition_failed");
    },
  );

  it.each(Object.entries(CASES).filter(([, c]) => !c.singleton))(
    "%s: a member of the same community who may not write the row hears the same under a wrong If-Match, never 412",
    async (path, c) => {
      // Issue 44: the ownership check (404) or the role (403) answers before If-Match, so a wrong tag
      // tells a neighbour neither that the row exists nor its version.
      const { write: url, bodies } = await objectOf(path, c);
      const neighbour = world.a.otherWarga.token;
      const send = (headers: Record<string, string>) =>
        callJson(url, { method: c.write.method, token: neighbour, body: bodies[0], headers });
      const tagged = await send({ "If-Match": '"987654-0000000000000000"' });
      const plain = await send({});
      expect(plain.status, JSON.stringify(plain.body)).toBeGreaterThanOrEqual(400);
      expect(tagged.status, JSON.stringify(tagged.body)).toBe(plain.status);
      expect(tagged.headers.get("ETag")).toBeNull();
    },
  );

  it.each(Object.entries(CASES).filter(([, c]) => !c.singleton))(
    "%s: another tenant's id is 404 with no ETag, also under If-Match",
    async (path, c) => {
      const { read, write: url, bodies } = await objectOf(path, c);
      if (c.read) {
        const res = await call(read, { token: world.b.as[c.read].token });
        expect(res.status).toBe(404);
        expect(res.headers.get("ETag")).toBeNull();
      }
      const res = await callJson(url, {
        method: c.write.method,
        token: world.b.as[c.write.as].token,
        body: bodies[0],
        headers: { "If-Match": '"1-0000000000000000"' },
      });
      expect(res.status).toBe(404);
      expect(res.headers.get("ETag")).toBeNull();
    },
  );
});

describe("the If-Match guard rides in the write's own batch", () => {
  const resource = () => {
    const found = versionedResources.find((v) => v.path === "/api/agenda/:id");
    if (!found) {
      throw new Error("agenda is not versioned");
    }
    return found;
  };
  const agendaId = async () =>
    (await paramsFor(world, "/api/agenda/:id", CASES["/api/agenda/:id"] as Case)).id ?? "";
  const target = (id: string) => ({ key: id, tenantId: world.a.tenant.id });
  const read = (id: string) =>
    tenantDb(bindings, world.a.tenant.slot)
      .select({ v: agenda.rowVersion, place: agenda.place })
      .from(agenda)
      .where(eq(agenda.id, id))
      .get();

  it("fails the whole batch when the row moved after the early check, so nothing of it lands", async () => {
    const db = tenantDb(bindings, world.a.tenant.slot);
    const id = await agendaId();
    const seen = await read(id);
    // The rival's write lands between the early check (passed at `seen.v`) and this request's batch.
    await db.update(agenda).set({ place: "Pos ronda" }).where(eq(agenda.id, id)).run();
    const late = new VersionedWrite(resource(), target(id), seen?.v ?? 0, bindings.PLATFORM_DB);
    const audit = `conditional-${id}`;
    // One request's handle, as a context built for it gets (core/tenancy/contexts.ts), with the guard.
    const request = new DbScope();
    const scoped = withStatementFacts(drizzle(d1Handle(tenantD1(world.a.tenant), request)));
    const detach = request.attach(late);
    await expect(
      scoped.batch([
        scoped.update(agenda).set({ place: "Lapangan" }).where(eq(agenda.id, id)),
        scoped.insert(tenantAuditLog).values({ id: audit, action: "agenda.update", targetType: "agenda" }),
      ]),
    ).rejects.toBeInstanceOf(PreconditionFailed);
    detach();
    expect(await read(id)).toEqual({ v: (seen?.v ?? 0) + 1, place: "Pos ronda" });
    expect(await db.select().from(tenantAuditLog).where(eq(tenantAuditLog.id, audit)).get()).toBeUndefined();

    // From the version the row has now, the same write goes through and learns its new version.
    const current = new VersionedWrite(resource(), target(id), (seen?.v ?? 0) + 1, bindings.PLATFORM_DB);
    request.attach(current);
    await scoped.update(agenda).set({ place: "Lapangan" }).where(eq(agenda.id, id)).run();
    expect(current.version).toBe((seen?.v ?? 0) + 2);
    expect(await read(id)).toEqual({ v: (seen?.v ?? 0) + 2, place: "Lapangan" });
  });

  it("moves the version on every UPDATE, also one that writes back an older version", async () => {
    const id = await agendaId();
    const d1 = tenantD1(world.a.tenant);
    const before = (await read(id))?.v ?? 0;
    await d1.prepare("UPDATE agenda SET place = 'Balai warga' WHERE id = ?1").bind(id).run();
    expect((await read(id))?.v).toBe(before + 1);
    await d1.prepare("UPDATE agenda SET row_version = 1 WHERE id = ?1").bind(id).run();
    expect((await read(id))?.v).toBe(before + 2);
  });

  it.each(["tenant", "platform"] as const)(
    "has its trigger on every table with a row_version column, in the %s database",
    async (database) => {
      const d1 = database === "tenant" ? tenantD1(world.a.tenant) : bindings.PLATFORM_DB;
      const tables = await d1
        .prepare(
          // ALTER TABLE … ADD rewrites the table's CREATE text, so the column shows in it.
          "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%`row_version`%'",
        )
        .all<{ name: string }>();
      const triggers = await d1
        .prepare(
          "SELECT tbl_name, name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_row_version'",
        )
        .all<{ tbl_name: string; name: string }>();
      const names = tables.results.map((t) => t.name).sort();
      const declared = versionedResources.filter((v) => v.home.database === database);
      expect(declared.length).toBeGreaterThan(0);
      expect(names).toEqual(expect.arrayContaining(declared.map((v) => getTableName(v.table))));
      expect(triggers.results.map((t) => `${t.tbl_name}:${t.name}`).sort()).toEqual(
        names.map((n) => `${n}:${n}_row_version`),
      );
    },
  );
});
