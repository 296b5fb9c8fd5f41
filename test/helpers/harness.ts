import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { hashPassword } from "../../src/core/auth/password";
import { signAccessToken } from "../../src/core/auth/tokens";
import { type Duty, isResident, type TenantRole } from "../../src/core/context";
import { memberships, sessions, users } from "../../src/core/db/identity-schema";
import { platformDb } from "../../src/core/db/platform";
import { tenants } from "../../src/core/db/platform-schema";
import { type Bindings, loadConfig } from "../../src/core/env";
import type { FeatureFlag } from "../../src/core/flags";
import { newId } from "../../src/core/ids";
import { systemNow } from "../../src/core/time";

export const bindings = env as unknown as Bindings;
export const PASSWORD = "kata-sandi-uji-2026";
let passwordHash: Promise<string> | undefined;
/** One PBKDF2 hash shared by every test user: hashing is deliberately slow. */
const sharedHash = () => {
  passwordHash ??= hashPassword(PASSWORD, bindings.PASSWORD_PEPPER);
  return passwordHash;
};

export interface CallInit {
  method?: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

let ipSeq = 1;

/**
 * What a test sends to read a problem in English: `{ headers: ENGLISH }`.
 *
 * `call` adds no Accept-Language of its own, on purpose (issue 42): the API answers Indonesian to a
 * caller that names no language, and a test client that declared English by default would hide that
 * default from the whole suite (and from the HTML pages' tests, which check it). A test asserts an
 * English title, detail or field message only by sending this header, which says why it expects
 * English; most tests assert the problem's `code`, which no language changes. The English detail is
 * the thrower's own sentence (it may name a quota or a field); the Indonesian one is the code's
 * catalogue sentence (core/i18n `problemText`).
 */
export const ENGLISH: Readonly<Record<string, string>> = { "Accept-Language": "en" };

/** Calls the main API Worker's real fetch handler, as a client would (no Accept-Language unless given). */
export async function call(path: string, init: CallInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  // Outside Cloudflare every request without CF-Connecting-IP shares one per-IP bucket (core/rateLimit):
  // give each test request its own address unless the test names one.
  if (!headers.has("CF-Connecting-IP")) {
    headers.set("CF-Connecting-IP", `198.18.${(ipSeq >> 8) & 255}.${ipSeq++ & 255}`);
  }
  if (init.token) {
    headers.set("Authorization", `Bearer ${init.token}`);
  }
  let body: BodyInit | undefined;
  if (init.body instanceof FormData) {
    // fetch writes the multipart Content-Type with its boundary itself.
    body = init.body;
  } else if (init.body !== undefined) {
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    if (!headers.has("Content-Type")) {
      headers.set("Content-Type", "application/json");
    }
  }
  return exports.default.fetch(
    new Request(`http://api.test${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body }),
  );
}

export async function callJson<T = Record<string, unknown>>(path: string, init: CallInit = {}) {
  const res = await call(path, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as T };
}

let seq = 0;
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

export async function insertUser(opts: {
  email?: string;
  name?: string;
  whatsapp?: string | null;
  /** Whether the number is proven (issue 44): true unless a test needs a merely claimed one. */
  whatsappVerified?: boolean;
  platformRole?: "super_admin";
}): Promise<{ id: string; email: string }> {
  const id = newId();
  const email = (opts.email ?? `${unique("user")}@warga.test`).toLowerCase();
  await platformDb(bindings)
    .insert(users)
    .values({
      id,
      email,
      name: opts.name ?? "Pengguna Uji",
      whatsapp: opts.whatsapp ?? null,
      whatsappVerifiedAt: opts.whatsapp && opts.whatsappVerified !== false ? new Date().toISOString() : null,
      emailVerifiedAt: new Date().toISOString(),
      passwordHash: await sharedHash(),
      platformRole: opts.platformRole ?? null,
      updatedAt: new Date().toISOString(),
    });
  return { id, email };
}

export async function login(email: string, tenant?: string): Promise<string> {
  const res = await callJson<{ accessToken: string }>("/api/auth/login", {
    body: { email, password: PASSWORD, ...(tenant ? { tenant } : {}) },
  });
  if (res.status !== 200) {
    throw new Error(`login failed for ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body.accessToken;
}

let operator: { mintedAt: number; token: Promise<string> } | undefined;

/** Forgets per-file state (the operator's account lives in the platform database, emptied before each file). */
export function resetHarness() {
  operator = undefined;
}

/**
 * The file's operator sign-in, minted again when a test moved the clock (setNow) by more than a few
 * minutes since: a token and session minted in a test's April have expired by the real November, and
 * the guard checks both.
 */
export function operatorToken(): Promise<string> {
  const now = systemNow().getTime();
  if (!operator || Math.abs(now - operator.mintedAt) > 5 * 60_000) {
    operator = {
      mintedAt: now,
      token: insertUser({ platformRole: "super_admin", name: "Operator" }).then((u) => login(u.email)),
    };
  }
  return operator.token;
}

export interface TestTenant {
  id: string;
  slug: string;
  slot: number;
  /**
   * The admin the operator invited at creation (issue 27): an account with no password yet, one of the
   * tenant's members and one of its admins until a test removes it.
   */
  invitedAdmin: { email: string };
  /**
   * A new member of this tenant, signed in: `warga` is a resident with no duty; a duty alone is an
   * officer with no house (not a resident) unless `unitId` gives them one. The session row and access
   * token are written as a sign-in writes them (sessions.ts `openSession`), without the password check:
   * PBKDF2 at 100,000 rounds per member was a tenth of the suite's time. Tests of sign-in itself go
   * through the route (`login`).
   */
  member(role: TenantRole, opts?: MemberOpts): Promise<Member>;
  /** Many members at once (load and concurrency tests), the same way. */
  members(role: TenantRole, count: number, opts?: MemberOpts): Promise<Member[]>;
}

interface MemberOpts {
  /** Their house: any member with one is a resident of the community, whatever their duties. */
  unitId?: string;
  /** Their own person on a family card of the tenant's registry (`family_members.id`). */
  personId?: string;
  whatsapp?: string;
  /** False for a number the member merely typed on their profile (proven by default). */
  whatsappVerified?: boolean;
  /** Duties held besides `role` (a ketua who is also the bendahara). */
  duties?: Duty[];
}

/** The membership's duties for a test member: `role` unless it is `warga`, plus any extra ones. */
export function dutiesFor(role: TenantRole, extra: readonly Duty[] = []): Duty[] {
  return [...new Set<Duty>([...(role === "warga" ? [] : [role]), ...extra])];
}
export interface Member {
  id: string;
  email: string;
  token: string;
}

/** Accounts, memberships and open sessions for `whatsapps.length` new members, ten rows per insert. */
async function enrol(
  tenantId: string,
  slug: string,
  role: TenantRole,
  whatsapps: (string | null)[],
  opts: MemberOpts,
): Promise<Member[]> {
  const db = platformDb(bindings);
  const now = new Date().toISOString();
  const roles = dutiesFor(role, opts.duties);
  const rows = await Promise.all(
    whatsapps.map(async (whatsapp) => ({
      id: newId(),
      email: `${unique("user")}@warga.test`,
      whatsapp,
      sid: newId(),
      mid: newId(),
      passwordHash: await sharedHash(),
    })),
  );
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
  for (let i = 0; i < rows.length; i += 10) {
    const chunk = rows.slice(i, i + 10);
    await db.insert(users).values(
      chunk.map(({ sid: _, mid: __, ...u }) => ({
        ...u,
        name: "Pengguna Uji",
        // Proven contacts (issue 44) unless a test asks for a merely claimed number.
        whatsappVerifiedAt: u.whatsapp && opts.whatsappVerified !== false ? now : null,
        emailVerifiedAt: now,
        updatedAt: now,
      })),
    );
    // Every tenant request asks whether its sign-in is live: each token gets its session row.
    await db.insert(sessions).values(
      chunk.map((u) => ({
        id: u.sid,
        userId: u.id,
        tenantId,
        familyId: u.sid,
        // A value of its own: the data export checks that no secret's value shows anywhere.
        refreshHash: newId(),
        expiresAt,
      })),
    );
    await db.insert(memberships).values(
      chunk.map((u) => ({
        id: u.mid,
        userId: u.id,
        tenantId,
        roles,
        unitId: opts.unitId ?? null,
        personId: opts.personId ?? null,
      })),
    );
  }
  const config = loadConfig(bindings);
  return Promise.all(
    rows.map(async ({ id, email, sid, mid }) => ({
      id,
      email,
      // As sign-in signs it: naming the membership at its first version (ADR 0043).
      token: await signAccessToken(config, {
        sub: id,
        tenant: slug,
        roles,
        resident: isResident(roles, opts.unitId ?? null),
        sid,
        mid,
        mv: 1,
        unit: opts.unitId ?? null,
      }),
    })),
  );
}

/**
 * Creates a tenant through the operator route, as production does: with its first admin invited (a
 * new account at a unique email, so the set-password link goes out and the account never signs in).
 */
export async function createTenant(opts: { type?: "RT" | "RW"; parentSlug?: string; slug?: string } = {}) {
  const invitedAdmin = { email: `${unique("ketua")}@warga.test` };
  const res = await callJson<{ id: string; slug: string; slot: number }>("/api/platform/tenants", {
    token: await operatorToken(),
    body: {
      slug: opts.slug ?? unique("rt"),
      name: "RT Uji",
      type: opts.type ?? "RT",
      parentSlug: opts.parentSlug,
      admin: { name: "Ketua Undangan", email: invitedAdmin.email },
    },
  });
  if (res.status !== 201) {
    throw new Error(`tenant creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const { id, slug, slot } = res.body;
  const tenant: TestTenant = {
    id,
    slug,
    slot,
    invitedAdmin,
    member: async (role, memberOpts = {}) => {
      const [one] = await enrol(id, slug, role, [memberOpts.whatsapp ?? null], memberOpts);
      return one as Member;
    },
    members: (role, count, memberOpts = {}) =>
      enrol(
        id,
        slug,
        role,
        Array.from({ length: count }, () => null),
        memberOpts,
      ),
  };
  return tenant;
}

export async function setTenantStatus(slug: string, status: "active" | "suspended") {
  await platformDb(bindings).update(tenants).set({ status }).where(eq(tenants.slug, slug));
}

/** Switches a tenant's modules on or off through the operator route, as an operator would. */
export async function setTenantFlags(tenant: { id: string }, flags: Partial<Record<FeatureFlag, boolean>>) {
  const res = await callJson(`/api/platform/tenants/${tenant.id}`, {
    method: "PATCH",
    token: await operatorToken(),
    body: { flags },
  });
  if (res.status !== 200) {
    throw new Error(`flag change failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** Asserts an RFC 9457 problem+json answer with the given status and stable code. */
export function expectProblem(
  res: { status: number; headers: Headers; body: unknown },
  status: number,
  code: string,
) {
  expect(res.headers.get("Content-Type")).toContain("application/problem+json");
  expect(res.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String) });
  expect(res.status).toBe(status);
}

/**
 * A refused state change (issue 45): 409 `invalid_transition` naming the caller's allowed next states in
 * `allowedNext` and at the end of the (Indonesian, unless the call asked otherwise) detail.
 */
export function expectRefusedMove(
  res: { status: number; headers: Headers; body: unknown },
  allowedNext: readonly string[],
) {
  expectProblem(res, 409, "invalid_transition");
  const body = res.body as { allowedNext?: string[]; detail: string };
  expect(body.allowedNext).toEqual(allowedNext);
  expect(body.detail).toContain(
    allowedNext.length
      ? `Status berikutnya yang diizinkan: ${allowedNext.join(", ")}.`
      : "Tidak ada perubahan status lagi yang diizinkan.",
  );
}
