import { describe, expect, it } from "vitest";
import { memberships } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { newId } from "../../../src/core/ids";
import { bindings, callJson, createTenant, insertUser, login } from "../../helpers/harness";

interface MeBody {
  id: string;
  roles: string[];
  resident: boolean;
  tenant: { slug: string } | null;
  memberships: { tenant: { slug: string }; roles: string[]; resident: boolean }[];
}

/** `GET /api/user/me` reads the account and its memberships in one round trip (a left join). */
describe("the profile read", () => {
  it("answers an account with no membership (an operator): no community, no memberships", async () => {
    const operator = await insertUser({ platformRole: "super_admin", name: "Operator Profil" });
    const me = await callJson<MeBody>("/api/user/me", { token: await login(operator.email) });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: operator.id, roles: ["super_admin"], resident: false, tenant: null });
    expect(me.body.memberships).toEqual([]);
  });

  it("lists every membership oldest first, the current one among them", async () => {
    const [first, second, third] = [await createTenant(), await createTenant(), await createTenant()];
    const person = await second.member("warga");
    // Joined the first community before, the third after the second.
    await platformDb(bindings)
      .insert(memberships)
      .values([
        {
          id: newId(),
          userId: person.id,
          tenantId: first.id,
          roles: ["bendahara"],
          createdAt: "2020-01-01T00:00:00.000Z",
        },
        {
          id: newId(),
          userId: person.id,
          tenantId: third.id,
          roles: ["admin"],
          createdAt: "2099-01-01T00:00:00.000Z",
        },
      ]);
    const me = await callJson<MeBody>("/api/user/me", { token: person.token });
    expect(me.status).toBe(200);
    expect(me.body.tenant?.slug).toBe(second.slug);
    expect(me.body.memberships.map((m) => [m.tenant.slug, m.roles, m.resident])).toEqual([
      [first.slug, ["bendahara"], false],
      [second.slug, [], true],
      [third.slug, ["admin"], false],
    ]);
  });
});
