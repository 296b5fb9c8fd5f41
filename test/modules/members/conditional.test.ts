import { describe, expect, it } from "vitest";
import { versionedResources } from "../../../src/app";
import type { TenantCtx } from "../../../src/core/context";
import { DbScope } from "../../../src/core/db/handles";
import { PreconditionFailed } from "../../../src/core/errors";
import { changeRoles } from "../../../src/modules/members/service";
import { VersionedWrite } from "../../../src/platform/conditional";
import { auditTrail, inScope, memberCtx } from "../../helpers/contexts";
import { bindings, call, callJson, createTenant, expectProblem } from "../../helpers/harness";
import { household } from "../surat/helpers";
import { allMembers, type MemberBody } from "./helpers";

/**
 * A membership as a versioned resource (ADR 0035, Update): its row lives in the platform database, so
 * its version, its early check and its in-batch guard are the platform's, and the row is matched to the
 * caller's community. test/core/conditional.test.ts walks the common part; this file holds the rest.
 */

const TAG = /^"(\d+)-[0-9a-f]{16}"$/;
const versionOf = (etag: string | null) => Number(TAG.exec(etag ?? "")?.[1] ?? Number.NaN);

const getMember = (token: string, userId: string, headers: Record<string, string> = {}) =>
  callJson<MemberBody>(`/api/members/${userId}`, { token, headers });

const write = (token: string, method: "PUT" | "DELETE", url: string, body: unknown, ifMatch?: string) =>
  callJson<MemberBody>(url, {
    method,
    token,
    body,
    headers: ifMatch === undefined ? {} : { "If-Match": ifMatch },
  });

async function membershipRow(userId: string, tenantId: string) {
  return bindings.PLATFORM_DB.prepare(
    "SELECT roles, person_id AS personId, row_version AS v FROM memberships WHERE user_id = ?1 AND tenant_id = ?2",
  )
    .bind(userId, tenantId)
    .first<{ roles: string; personId: string | null; v: number }>();
}

/** The same context, except that `rival` runs on the platform database just before the verb's batch. */
function losingPlatformRace(ctx: TenantCtx, rival: () => Promise<unknown>): TenantCtx {
  const platform = new Proxy(ctx.platform, {
    get(target, prop) {
      if (prop === "batch") {
        return async (items: Parameters<TenantCtx["platform"]["batch"]>[0]) => {
          await rival();
          return target.batch(items);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { ...ctx, platform };
}

describe("one member", () => {
  it("reads as the list shows them, contact masked for staff who are not admins", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const treasurer = await tenant.member("bendahara", { unitId: h.unitId });
    const listed = (await allMembers(h.admin.token)).find((m) => m.userId === treasurer.id);
    const asAdmin = await getMember(h.admin.token, treasurer.id);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toEqual(listed);
    const asSecretary = await getMember(h.sek.token, treasurer.id);
    expect(asSecretary.body.email).toMatch(/^.\*\*\*@warga\.test$/);
    // The same row, another representation: another tag, the same version.
    expect(asSecretary.headers.get("ETag")).not.toBe(asAdmin.headers.get("ETag"));
    expect(versionOf(asSecretary.headers.get("ETag"))).toBe(versionOf(asAdmin.headers.get("ETag")));
    expectProblem(await getMember(h.warga.token, treasurer.id), 403, "forbidden_role");
  });

  it("is 404 with no ETag in another community, whatever If-None-Match or If-Match says, and for an unknown id", async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    const member = await a.member("bendahara");
    const adminB = await b.member("admin");
    const asked: Record<string, string>[] = [
      {},
      { "If-None-Match": "*" },
      { "If-None-Match": '"1-0000000000000000"' },
    ];
    for (const headers of asked) {
      const res = await getMember(adminB.token, member.id, headers);
      expectProblem(res, 404, "not_found");
      expect(res.headers.get("ETag")).toBeNull();
    }
    expectProblem(await getMember(adminB.token, "01UNKNOWNUSER000000000000"), 404, "not_found");
    // `*` matches an existing row only: B has no such member, so the write goes on to its 404.
    const res = await write(
      adminB.token,
      "PUT",
      `/api/members/${member.id}/roles`,
      { roles: ["admin"] },
      "*",
    );
    expectProblem(res, 404, "not_found");
    expect(res.headers.get("ETag")).toBeNull();
    // A tag that is stale for A's row is no answer about it either: 404, never 412.
    for (const tag of ['"99-0000000000000000"', '"0-0000000000000000"']) {
      const refused = await write(adminB.token, "DELETE", `/api/members/${member.id}`, undefined, tag);
      expectProblem(refused, 404, "not_found");
    }
    expect((await membershipRow(member.id, a.id))?.roles).toBe('["bendahara"]');
  });

  it("answers the current ETag to a change that changes nothing, a new one to each that does", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const treasurer = await tenant.member("bendahara", { unitId: h.unitId });
    const etag = (await getMember(h.admin.token, treasurer.id)).headers.get("ETag") ?? "";
    const url = `/api/members/${treasurer.id}`;

    const same = await write(h.admin.token, "PUT", `${url}/roles`, { roles: ["bendahara"] }, etag);
    expect(same.status).toBe(200);
    expect(versionOf(same.headers.get("ETag"))).toBe(versionOf(etag));
    const linked = await write(h.sek.token, "PUT", `${url}/person`, { personId: h.childMemberId }, etag);
    expect(linked.status).toBe(200);
    expect(versionOf(linked.headers.get("ETag"))).toBe(versionOf(etag) + 1);
    // The duties were read before the link: that tag is stale now.
    const stale = await write(h.admin.token, "PUT", `${url}/roles`, { roles: ["sekretaris"] }, etag);
    expectProblem(stale, 412, "precondition_failed");
    expect((await membershipRow(treasurer.id, tenant.id))?.roles).toBe('["bendahara"]');
  });

  it("refuses a stale removal before any of it happens", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const treasurer = await tenant.member("bendahara", { unitId: h.unitId });
    const etag = (await getMember(h.admin.token, treasurer.id)).headers.get("ETag") ?? "";
    // A duty added (one taken away would end their sessions here).
    await write(h.admin.token, "PUT", `/api/members/${treasurer.id}/roles`, {
      roles: ["bendahara", "sekretaris"],
    });

    const url = `/api/members/${treasurer.id}`;
    expectProblem(await write(h.admin.token, "DELETE", url, undefined, etag), 412, "precondition_failed");
    // Still a member, still signed in, nothing audited.
    expect((await call("/api/members", { token: treasurer.token })).status).toBe(200);
    expect(await auditTrail(h.admin.token, "action=member.remove")).toEqual([]);

    const current = (await getMember(h.admin.token, treasurer.id)).headers.get("ETag") ?? "";
    const removed = await write(h.admin.token, "DELETE", url, undefined, current);
    expect(removed.status).toBe(204);
    expect(removed.headers.get("ETag")).toBeNull();
    expect(await membershipRow(treasurer.id, tenant.id)).toBeNull();
  });
});

describe("the membership's If-Match guard rides in the platform batch", () => {
  const resource = () => {
    const found = versionedResources.find((v) => v.path === "/api/members/:userId/roles");
    if (!found) {
      throw new Error("memberships are not versioned");
    }
    return found;
  };

  it("refuses a change of duties whole when the row moved between the early check and the batch", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const treasurer = await tenant.member("bendahara", { unitId: h.unitId });
    const seen = (await membershipRow(treasurer.id, tenant.id))?.v ?? 0;
    const ctx = await memberCtx(tenant.slug, h.admin, "admin");
    // The rival links the person on the raw binding (outside this request's hook).
    const rival = () =>
      bindings.PLATFORM_DB.prepare(
        "UPDATE memberships SET person_id = ?1 WHERE user_id = ?2 AND tenant_id = ?3",
      )
        .bind(h.childMemberId, treasurer.id, tenant.id)
        .run();
    const target = { key: treasurer.id, tenantId: tenant.id };
    const late = new VersionedWrite(resource(), target, seen, bindings.PLATFORM_DB);
    const request = new DbScope();
    const detach = request.attach(late);
    await expect(
      changeRoles({
        ctx: losingPlatformRace(inScope(ctx, request), rival),
        id: treasurer.id,
        input: { roles: ["sekretaris"] },
      }),
    ).rejects.toBeInstanceOf(PreconditionFailed);
    detach();
    expect(await membershipRow(treasurer.id, tenant.id)).toEqual({
      roles: '["bendahara"]',
      personId: h.childMemberId,
      v: seen + 1,
    });
    expect(await auditTrail(h.admin.token, "action=member.roles")).toEqual([]);

    // From the version the row has now, the same change goes through and learns its new version.
    const current = new VersionedWrite(resource(), target, seen + 1, bindings.PLATFORM_DB);
    request.attach(current);
    await changeRoles({ ctx: inScope(ctx, request), id: treasurer.id, input: { roles: ["sekretaris"] } });
    expect(current.version).toBe(seen + 2);
    expect((await membershipRow(treasurer.id, tenant.id))?.roles).toBe('["sekretaris"]');
  });

  it("moves the version on every UPDATE of the row, also one that writes back an older version", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("bendahara");
    const before = (await membershipRow(member.id, tenant.id))?.v ?? 0;
    const update = (set: string) =>
      bindings.PLATFORM_DB.prepare(`UPDATE memberships SET ${set} WHERE user_id = ?1 AND tenant_id = ?2`)
        .bind(member.id, tenant.id)
        .run();
    await update("unit_id = unit_id");
    expect((await membershipRow(member.id, tenant.id))?.v).toBe(before + 1);
    await update("row_version = 1");
    expect((await membershipRow(member.id, tenant.id))?.v).toBe(before + 2);
  });
});
