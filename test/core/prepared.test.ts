import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it, vi } from "vitest";
import { users } from "../../src/core/db/identity-schema";
import { preparedOnce } from "../../src/core/db/prepared";
import { bindings, insertUser } from "../helpers/harness";

const BY_EMAIL = Symbol("by email");
const BY_NAME = Symbol("by name");

describe("preparedOnce", () => {
  it("builds a query once per database and site, and binds each call's values", async () => {
    const db = drizzle(bindings.PLATFORM_DB);
    const [a, b] = [await insertUser({ name: "Dewi Lestari" }), await insertUser({ name: "Agus Salim" })];
    const build = vi.fn((on: typeof db) =>
      on
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, sql.placeholder("email")))
        .prepare(),
    );
    expect(await preparedOnce(db, BY_EMAIL, build).get({ email: a.email })).toEqual({ id: a.id });
    expect(await preparedOnce(db, BY_EMAIL, build).get({ email: b.email })).toEqual({ id: b.id });
    expect(build).toHaveBeenCalledTimes(1);

    // Another site on the same database is its own query; another database builds its own.
    const byName = preparedOnce(db, BY_NAME, (on) =>
      on
        .select({ id: users.id })
        .from(users)
        .where(eq(users.name, sql.placeholder("name")))
        .prepare(),
    );
    expect(await byName.get({ name: "Agus Salim" })).toEqual({ id: b.id });
    const other = drizzle(bindings.PLATFORM_DB);
    expect(await preparedOnce(other, BY_EMAIL, build).get({ email: a.email })).toEqual({ id: a.id });
    expect(build).toHaveBeenCalledTimes(2);
  });
});
