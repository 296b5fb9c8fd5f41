import { describe, expect, it } from "vitest";
import { z } from "zod";
import { routeTable } from "../../src/app";
import { DUTIES } from "../../src/core/context";
import type { Access } from "../../src/core/http/access";
import { WargaAccess } from "../../src/core/http/openapi-access";
import { callJson } from "../helpers/harness";

/**
 * The machine-readable contract of /openapi.json a console is generated from (issue 42 item 5): who may
 * call each operation, operationIds a generator turns into good names, and camelCase field names but for
 * the spec's own. Every check walks the whole document or the whole route table, so a route or schema
 * added later is covered without a line here.
 */

interface Operation {
  operationId?: string;
  "x-warga-access"?: Record<string, unknown>;
}
interface Doc {
  info: { description?: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
  "x-warga-extensions"?: Record<string, { description: string; schema: unknown }>;
}

const openapiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

function operations(doc: Doc): { key: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method} ${path}`, op })),
  );
}

/**
 * The guard's access line read independently of the code that writes the extension: a tenant line's
 * roles are the union of the duties and, when residents may, `warga`; every other scope carries its
 * flag or nothing.
 */
function expectedAccess(access: Access): Record<string, unknown> {
  if (access.scope === "tenant") {
    const roles = new Set<string>(access.roles);
    return {
      scope: "tenant",
      duties: DUTIES.filter((d) => roles.has(d)),
      residents: roles.has("warga"),
      ...(access.flag ? { flag: access.flag } : {}),
    };
  }
  if (access.scope === "device" || (access.scope === "public-tenant" && access.flag)) {
    return { scope: access.scope, flag: access.flag };
  }
  return { scope: access.scope };
}

describe("x-warga-access: who may call each operation", () => {
  it("every route of the guard's table states its access line, and no operation lacks one", async () => {
    const { body: doc } = await callJson<Doc>("/openapi.json");
    const byKey = new Map(operations(doc).map(({ key, op }) => [key, op]));
    const mismatched: string[] = [];
    for (const route of routeTable) {
      const key = `${route.method} ${openapiPath(route.path)}`;
      const stated = byKey.get(key)?.["x-warga-access"];
      if (JSON.stringify(stated) !== JSON.stringify(expectedAccess(route.access))) {
        mismatched.push(`${key}: ${JSON.stringify(stated)} vs ${JSON.stringify(route.access)}`);
      }
    }
    expect(mismatched).toEqual([]);
    const undeclared = operations(doc)
      .filter(({ op }) => op["x-warga-access"] === undefined)
      .map(({ key }) => key);
    expect(undeclared).toEqual([]);
    expect(byKey.size).toBe(routeTable.length);
  });

  it("a tenant line's union of duties and residency is exactly the roles the guard admits", async () => {
    const { body: doc } = await callJson<Doc>("/openapi.json");
    for (const route of routeTable) {
      if (route.access.scope !== "tenant") {
        continue;
      }
      const stated = doc.paths[openapiPath(route.path)]?.[route.method]?.["x-warga-access"] as {
        duties: string[];
        residents: boolean;
      };
      const admitted = [...stated.duties, ...(stated.residents ? ["warga"] : [])].sort();
      expect(admitted, `${route.method} ${route.path}`).toEqual([...route.access.roles].sort());
    }
  });

  it("every statement fits the schema the document publishes for it, and the document explains it", async () => {
    const { body: doc } = await callJson<Doc>("/openapi.json");
    const published = doc["x-warga-extensions"]?.["x-warga-access"];
    expect(published?.schema).toEqual(z.toJSONSchema(WargaAccess, { target: "draft-2020-12" }));
    for (const { key, op } of operations(doc)) {
      expect(WargaAccess.safeParse(op["x-warga-access"]).success, key).toBe(true);
    }
    expect(doc.info.description).toContain("x-warga-access");
  });

  it("names the satpam where the gate admits it, and the flag a module sits behind", async () => {
    const { body: doc } = await callJson<Doc>("/openapi.json");
    const checkIn = routeTable.find((r) => r.access.scope === "tenant" && r.access.roles.includes("satpam"));
    expect(checkIn, "some route admits the gate guard").toBeDefined();
    const stated =
      doc.paths[openapiPath(checkIn?.path ?? "")]?.[checkIn?.method ?? "get"]?.["x-warga-access"];
    expect(stated).toMatchObject({ scope: "tenant", residents: false, flag: "tamu" });
    expect((stated as { duties: string[] }).duties).toContain("satpam");
    expect(doc.paths["/api/health"]?.get?.["x-warga-access"]).toEqual({ scope: "public" });
    expect(doc.paths["/api/platform/tenants"]?.get?.["x-warga-access"]).toEqual({ scope: "platform" });
  });
});

describe("operationIds", () => {
  it("are lower camel case names a generator uses as they are, unique across the document", async () => {
    const { body: doc } = await callJson<Doc>("/openapi.json");
    const ids = operations(doc).map(({ op }) => op.operationId ?? "");
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]+$/.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(doc.paths["/api/auth/login"]?.post?.operationId).toBe("login");
    expect(doc.paths["/api/surat"]?.get?.operationId).toBe("listLetters");
    expect(doc.paths["/api/visitor"]?.post?.operationId).toBe("createVisitor");
  });
});

/**
 * The names allowed outside camelCase, each with where and why. The support ticket resource keeps the
 * spec's snake_case (`reply_token`, `attachment_url`, `lampiran_url`, and the rest of that resource with
 * them: ARCHITECTURE.md). The arrears buckets name day ranges (0–30, 31–60, 61–90) that camelCase
 * cannot separate; they predate this check and a rename would break clients.
 */
const SUPPORT_TICKET_NAMES = [
  "reply_token",
  "attachment_url",
  "lampiran_url",
  "lampiran_urls",
  "author_name",
  "status_change",
  "created_at",
  "updated_at",
  "tenant_slug",
  "submitter_name",
  "submitter_email",
  "submitter_phone",
  "notification_pending",
  "notification_failed",
  "label_en",
];
const ALLOWED: { where: RegExp; names: readonly string[] }[] = [
  {
    where: /^#\/components\/schemas\/SupportTicket|^\w+ \/api\/(platform\/|public\/)?support-tickets/,
    names: SUPPORT_TICKET_NAMES,
  },
  { where: /^#\/components\/schemas\/DuesArrears$/, names: ["d0_30", "d31_60", "d61_90"] },
];

function propertyNames(schema: unknown, where: string, found: { where: string; name: string }[]): void {
  if (Array.isArray(schema)) {
    for (const item of schema) {
      propertyNames(item, where, found);
    }
    return;
  }
  if (typeof schema !== "object" || schema === null) {
    return;
  }
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
    for (const name of Object.keys(properties)) {
      found.push({ where, name });
    }
  }
  for (const value of Object.values(schema)) {
    propertyNames(value, where, found);
  }
}

describe("field names", () => {
  it("are camelCase in every schema, but for the spec's own wire names, which the document explains", async () => {
    const { body: doc } = await callJson<Doc>("/openapi.json");
    const found: { where: string; name: string }[] = [];
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      propertyNames(schema, `#/components/schemas/${name}`, found);
    }
    for (const { key, op } of operations(doc)) {
      propertyNames(op, key, found);
    }
    expect(found.length).toBeGreaterThan(500);
    const offending = found
      .filter(({ name }) => !/^[a-z][a-zA-Z0-9]*$/.test(name))
      .filter(({ where, name }) => !ALLOWED.some((a) => a.where.test(where) && a.names.includes(name)))
      .map(({ where, name }) => `${where}: ${name}`);
    expect([...new Set(offending)]).toEqual([]);

    // The document says why, once for the whole and again on each of the three fields.
    for (const name of ["reply_token", "attachment_url", "lampiran_url"]) {
      expect(doc.info.description).toContain(`\`${name}\``);
    }
    // Every occurrence, in the shared schemas and in each operation's own (an input, a path parameter).
    const described = (name: string) => {
      const seen: unknown[] = [];
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) {
          node.forEach(walk);
        } else if (typeof node === "object" && node !== null) {
          const record = node as Record<string, unknown>;
          const properties = record.properties as Record<string, { description?: string }> | undefined;
          if (properties?.[name]) {
            seen.push(properties[name].description);
          }
          if (record.name === name && record.in) {
            seen.push(
              (record as { description?: string; schema?: { description?: string } }).schema?.description ??
                record.description,
            );
          }
          Object.values(record).forEach(walk);
        }
      };
      walk(doc);
      return seen;
    };
    for (const name of ["reply_token", "attachment_url", "lampiran_url"]) {
      const descriptions = described(name);
      expect(descriptions.length, name).toBeGreaterThan(0);
      expect(
        descriptions.filter((d) => typeof d !== "string" || !d.includes("snake_case")),
        `every ${name} says why it is snake_case`,
      ).toEqual([]);
    }
  });
});
