import { exports } from "cloudflare:workers";
import { hc } from "hono/client";
import { describe, expect, it } from "vitest";
import type { AppType } from "../../src/index";
import { createTenant, operatorToken } from "../helpers/harness";

/** A typed client over the Worker's own fetch: the same `hc<AppType>` a web console would use. */
function client(token?: string) {
  return hc<AppType>("http://api.test", {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => exports.default.fetch(new Request(input, init)),
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
}

describe("typed client (hono/client with AppType)", () => {
  it("drives health, login, tenant creation and a tenant read with typed inputs and outputs", async () => {
    const health = await client().api.health.$get();
    const report = await health.json();
    expect(report.status).toBe("ok");

    const created = await client(await operatorToken()).api.platform.tenants.$post({
      json: {
        slug: `rt-hc-${Date.now()}`,
        name: "RT Klien",
        type: "RT",
        admin: { name: "Ketua Klien", email: `ketua-hc-${Date.now()}@warga.test` },
      },
    });
    expect(created.status).toBe(201);
    const tenant = await created.json();
    expect(tenant.flags.musyawarah).toBe(true);
    expect(tenant.adminInvitation).toEqual({ channel: "email", sent: true });

    const t = await createTenant();
    const admin = await t.member("admin");
    const api = client(admin.token);
    const unit = await (
      await api.api.kependudukan.units.$post({ json: { block: "d", number: "12" } })
    ).json();
    expect(unit.block).toBe("D");
    const fetched = await api.api.kependudukan.units[":id"].$get({ param: { id: unit.id } });
    expect((await fetched.json()).number).toBe("12");
    const list = await api.api.kependudukan.units.$get({ query: { limit: "5" } });
    expect((await list.json()).items.map((u) => u.id)).toContain(unit.id);

    const me = await (await api.api.user.me.$get()).json();
    expect(me.roles).toEqual(["admin"]);
  });

  it("rejects wrong inputs at compile time", () => {
    // Never called: the @ts-expect-error lines fail `npm run typecheck` if the client loses its types.
    const typed = () => {
      const api = client();
      // @ts-expect-error: block must be a string
      api.api.kependudukan.units.$post({ json: { block: 1, number: "2" } });
      // @ts-expect-error: tenant type is RT or RW
      api.api.platform.tenants.$post({ json: { slug: "rt-x", name: "RT X", type: "RK" } });
    };
    expect(typeof typed).toBe("function");
  });
});
