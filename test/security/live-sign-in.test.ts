import { describe, expect, it } from "vitest";
import { call, callJson, createTenant, expectProblem, insertUser, PASSWORD } from "../helpers/harness";

/**
 * Issue 31, L3: after logout, an old access token's bulk reads of personal data stop at once, as its
 * writes do: the registry's export, list and search, the members list, the person's own data export,
 * and the operator's reads across communities.
 */
interface Session {
  accessToken: string;
  refreshToken: string;
}

async function signIn(email: string): Promise<Session> {
  const res = await callJson<Session>("/api/auth/login", { body: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  return res.body;
}

async function signedOut(email: string, reads: string[]) {
  const session = await signIn(email);
  for (const path of reads) {
    const res = await call(path, { token: session.accessToken });
    expect(res.status, path).toBeLessThan(300);
    await res.arrayBuffer();
  }
  expect((await callJson("/api/auth/logout", { body: { refreshToken: session.refreshToken } })).status).toBe(
    204,
  );
  for (const path of reads) {
    expectProblem(await callJson(path, { token: session.accessToken }), 401, "session_revoked");
  }
}

describe("reads of a signed-out token", () => {
  it("stop at once for the registry and the members list", async () => {
    const tenant = await createTenant();
    const secretary = await tenant.member("sekretaris");
    await signedOut(secretary.email, [
      "/api/kependudukan/export",
      "/api/kependudukan/kk",
      "/api/kependudukan/kk?q=3174",
      "/api/kependudukan/units",
      "/api/members",
      "/api/user/data-export",
    ]);
  });

  it("stop at once for an operator's reads across communities", async () => {
    const tenant = await createTenant();
    const operator = await insertUser({ platformRole: "super_admin", name: "Operator L3" });
    await signedOut(operator.email, [
      `/api/platform/tenants/${tenant.id}/archives`,
      "/api/platform/audit",
      "/api/platform/tenants",
    ]);
  });
});
