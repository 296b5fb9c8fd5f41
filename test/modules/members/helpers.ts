import { expect } from "vitest";
import { callJson, type Member, PASSWORD, type TestTenant } from "../../helpers/harness";

export interface MemberBody {
  userId: string;
  name: string;
  email: string | null;
  whatsapp: string | null;
  unitId: string | null;
  unit: { id: string; block: string; number: string } | null;
  personId: string | null;
  roles: string[];
  resident: boolean;
  status: "aktif" | "diundang" | "nonaktif";
  joinedAt: string;
}

export const listMembers = (token: string, query = "") =>
  callJson<{ items: MemberBody[]; nextCursor: string | null }>(`/api/members${query}`, { token });

export const setRoles = (token: string, userId: string, roles: unknown) =>
  callJson<MemberBody>(`/api/members/${userId}/roles`, { method: "PUT", token, body: { roles } });

export const removeMember = (token: string, userId: string) =>
  callJson(`/api/members/${userId}`, { method: "DELETE", token });

export const invite = (token: string, body: Record<string, unknown>) =>
  callJson<{ invitation: { channel: string | null; sent: boolean } }>("/api/members/invitations", {
    token,
    body,
  });

export const linkPerson = (token: string, userId: string, personId: string | null) =>
  callJson<MemberBody>(`/api/members/${userId}/person`, { method: "PUT", token, body: { personId } });

/** Every member of the tenant, page by page, as `token` (staff) sees them. */
export async function allMembers(token: string, query = ""): Promise<MemberBody[]> {
  const all: MemberBody[] = [];
  let cursor: string | null = null;
  do {
    const res = await listMembers(token, cursor ? `${query}${query ? "&" : "?"}cursor=${cursor}` : query);
    expect(res.status).toBe(200);
    all.push(...res.body.items);
    cursor = res.body.nextCursor;
  } while (cursor);
  return all;
}

/**
 * An admin who is the community's only one: whoever else holds the duty (the admin the operator invited
 * when the tenant was created, if any) is removed first.
 */
export async function soleAdmin(tenant: TestTenant, opts: { unitId?: string } = {}): Promise<Member> {
  const admin = await tenant.member("admin", opts);
  for (const other of await allMembers(admin.token, "?role=admin&limit=100")) {
    if (other.userId !== admin.id) {
      expect((await removeMember(admin.token, other.userId)).status).toBe(204);
    }
  }
  return admin;
}

/** Signs in with the test password: both tokens, for tests that refresh. */
export async function signIn(email: string, tenant: string) {
  const res = await callJson<{
    accessToken: string;
    refreshToken: string;
    user: { roles: string[]; resident: boolean };
  }>("/api/auth/login", { body: { email, password: PASSWORD, tenant } });
  expect(res.status).toBe(200);
  return res.body;
}

let phone = 0;
/** A fresh Indonesian mobile number as typed (08…) and as stored (628…). */
export function nextPhone() {
  phone += 1;
  const local = `0857${Date.now().toString().slice(-5)}${String(phone).padStart(3, "0")}`;
  return { typed: local, stored: `62${local.slice(1)}` };
}
