import { describe, expect, it } from "vitest";
import type { Actor, PlatformCtx } from "../../src/core/context";
import { DomainError } from "../../src/core/errors";
import { closedTenantCtx } from "../../src/core/tenancy/closed";
import { systemPlatformCtx } from "../../src/core/tenancy/system";
import { bindings, createTenant } from "../helpers/harness";

/** The platform context of `actor`, as a request or a job would hand it to core. */
function asActor(actor: Actor): PlatformCtx {
  return { ...systemPlatformCtx(bindings, "test"), actor };
}

async function closedTenant() {
  const tenant = await createTenant();
  await bindings.PLATFORM_DB.prepare("UPDATE tenants SET status = 'ditutup' WHERE id = ?")
    .bind(tenant.id)
    .run();
  return tenant;
}

const user = (roles: Extract<Actor, { kind: "user" }>["roles"], tenantSlug: string | null): Actor => ({
  kind: "user",
  userId: "u-test",
  roles,
  sessionId: "s-test",
  tenantSlug,
});

describe("closedTenantCtx (issue 48: who may open a closed community's database)", () => {
  it("opens it for the platform: the system (the close's steps, the hourly archive job) and an operator", async () => {
    const tenant = await closedTenant();
    const bySystem = await closedTenantCtx(systemPlatformCtx(bindings, "test"), tenant.id);
    expect(bySystem.tenant).toMatchObject({ id: tenant.id, status: "ditutup" });
    const byOperator = await closedTenantCtx(asActor(user(["super_admin"], null)), tenant.id);
    expect(byOperator.tenant.id).toBe(tenant.id);
  });

  it("refuses anyone else with 403 forbidden before reading the tenant: its own admin, a resident, a service, a device", async () => {
    const tenant = await closedTenant();
    const others: Actor[] = [
      user(["admin"], tenant.slug),
      user(["warga"], tenant.slug),
      { kind: "service", name: "notify" },
      { kind: "device", deviceId: "d-test", tenantSlug: tenant.slug, adapter: "test" },
    ];
    for (const actor of others) {
      const refused = await closedTenantCtx(asActor(actor), tenant.id).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused, actor.kind).toBeInstanceOf(DomainError);
      expect((refused as DomainError).code, actor.kind).toBe("forbidden");
    }
    // Refused before the row is read: an unknown id is the same 403, not a 404.
    const unknown = await closedTenantCtx(asActor(user(["admin"], tenant.slug)), "no-such-tenant").catch(
      (error: unknown) => error,
    );
    expect((unknown as DomainError).code).toBe("forbidden");
  });
});
