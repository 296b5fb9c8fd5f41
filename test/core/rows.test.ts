import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it, vi } from "vitest";
import { users } from "../../src/core/db/identity-schema";
import { tenants } from "../../src/core/db/platform-schema";
import { rowById, rowByIdOrNotFound } from "../../src/core/db/rows";
import { NotFound } from "../../src/core/errors";
import { bindings, createTenant, insertUser } from "../helpers/harness";

/** The platform database, with every `prepare` it is asked for written down. */
function preparing(real: D1Database, prepared: string[]): D1Database {
  return new Proxy(real, {
    get(target, key) {
      if (key === "prepare") {
        return (sql: string) => {
          prepared.push(sql);
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("rowById", () => {
  it("reads one row by id with drizzle's property names, and undefined for an id that names none", async () => {
    const db = drizzle(bindings.PLATFORM_DB);
    const user = await insertUser({ name: "Siti Rahayu", whatsapp: "+6281234567890" });

    const row = await rowById(db, users, user.id);
    expect(row).toMatchObject({
      id: user.id,
      email: user.email,
      name: "Siti Rahayu",
      whatsapp: "+6281234567890",
    });
    expect(row?.passwordHash).toEqual(expect.any(String));
    expect(await rowById(db, users, "no-such-user")).toBeUndefined();
  });

  it("builds each table's SQL once per isolate, whatever database it then reads, and binds only the id", async () => {
    const prepared: string[] = [];
    const db = drizzle(preparing(bindings.PLATFORM_DB, prepared));
    const [a, b] = [await insertUser({}), await insertUser({})];

    expect((await rowById(db, users, a.id))?.id).toBe(a.id);
    expect((await rowById(db, users, b.id))?.id).toBe(b.id);
    expect(await rowById(db, users, a.id)).toMatchObject({ email: a.email });
    expect(await rowById(db, tenants, "no-such-tenant")).toBeUndefined();

    expect(new Set(prepared.slice(0, 3)).size).toBe(1);
    expect(prepared[0]).toMatch(/^select .* from "users" where "users"\."id" = \?$/);
    expect(prepared[3]).toMatch(/from "tenants" where "tenants"\."id" = \?$/);

    // Another database instance (a request's own D1 session is one) builds nothing: the same SQL text.
    const again: string[] = [];
    const other = drizzle(preparing(bindings.PLATFORM_DB, again));
    const select = vi.spyOn(other, "select");
    expect((await rowById(other, users, b.id))?.id).toBe(b.id);
    expect(await rowById(other, tenants, "another")).toBeUndefined();
    expect(select).not.toHaveBeenCalled();
    expect(again).toEqual([prepared[0], prepared[3]]);
  });

  it("decodes every column as drizzle's own select does (JSON, booleans, numbers, nulls)", async () => {
    const db = drizzle(bindings.PLATFORM_DB);
    const tenant = await createTenant();
    const user = await insertUser({ name: "Bambang Sutrisno" });
    for (const [table, id] of [
      [tenants, tenant.id],
      [users, user.id],
    ] as const) {
      const viaDrizzle = await db.select().from(table).where(eq(table.id, id)).get();
      expect(await rowById(db, table, id)).toStrictEqual(viaDrizzle);
    }
  });

  it("rowByIdOrNotFound answers the row, or throws NotFound with the thing's name and code", async () => {
    const db = drizzle(bindings.PLATFORM_DB);
    const user = await insertUser({});
    expect((await rowByIdOrNotFound(db, users, user.id, "User"))?.email).toBe(user.email);
    const missing = await rowByIdOrNotFound(
      db,
      tenants,
      "no-such-tenant",
      "Tenant",
      "tenant_not_found",
    ).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFound);
    expect(missing).toMatchObject({ code: "tenant_not_found", message: "Tenant not found." });
  });
});
