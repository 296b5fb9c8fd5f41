import type { TenantRole } from "../../src/core/context";
import type { HttpMethod } from "../../src/core/http/access";
import { CLEAN_PNG } from "../modules/galeri-pasar/images";
import { type Household, household } from "../modules/surat/helpers";
import { createTenant, type Member, operatorToken, type TestTenant } from "./harness";

/**
 * One real object per kind, made through the API in tenant A, for the isolation walk
 * (test/core/isolation-walk.test.ts). Each module keeps its factories in
 * `test/modules/<module>/factories.ts` (core's own routes in `test/core/factories.ts`), keyed by route
 * path; test/modules/factories.ts collects them. Every path with a `:param` needs an entry, and a path
 * without one fails the walk, so a new module is walked the day it lands. This file builds the world
 * they share: two tenants with a member of every role, and what every factory file uses.
 */

export interface Side {
  tenant: TestTenant;
  as: Record<TenantRole, Member>;
}

export interface World {
  /** Where the objects are made; its resident lives in a registered household with a complete profile. */
  a: Side & { household: Household; otherWarga: Member };
  /** The other tenant, whose members must never reach A's objects. */
  b: Side;
  operator: string;
  /** Makes an object once per file: the routes of one kind share it. */
  once<T>(kind: string, make: () => Promise<T>): Promise<T>;
}

export interface TenantObject {
  params: Record<string, string>;
  /** Bodies that pass validation, so a write reaches the lookup and its 404 rather than a 400. */
  body?: Partial<Record<HttpMethod, unknown>>;
  /** Who made it in A, and so may read it back (defaults to the first role the route allows). */
  ownerRole?: TenantRole;
  /** A's own GET answer when it is not 200 (a letter's PDF before it is finished is 409). */
  ownGetStatus?: number;
  /** One resident's own object: another resident of the same tenant gets 404 too. */
  residentOwned?: boolean;
}

export interface PublicObject {
  /** The real values: they open the object. */
  params: Record<string, string>;
  /** Values that must not open it (another ticket's token, an unknown code): 404. */
  foreign: Record<string, string>;
  body?: Partial<Record<HttpMethod, unknown>>;
  ownGetStatus?: number;
}

export type Factory =
  /** A tenant object (also for `user` routes serving one tenant's files): B's members get 404. */
  | { kind: "tenant"; make(world: World): Promise<TenantObject> }
  /** Operator routes take any tenant's ids by design: a tenant admin gets 403, the operator no 404. */
  | { kind: "platform"; make(world: World): Promise<TenantObject> }
  /** No login: the path's own secret is the credential, so another secret must not open the object. */
  | { kind: "public"; make(world: World): Promise<PublicObject> }
  /**
   * The parameter names no object; says why, so the exemption is a decision on record. Without `probe`
   * it names an identity provider (an unconfigured one is 404); with it, the walk calls the route with
   * these params and no sign-in and expects `status`.
   */
  | { kind: "exempt"; why: string; probe?: { params: Record<string, string>; status: number } };

/** One file's factories, keyed by route path (`/api/visitor/:id`). */
export type FactoryTable = Readonly<Record<string, Factory>>;

export async function made<T>(
  res: Promise<{ status: number; body: T }>,
  what: string,
  status = 201,
): Promise<T> {
  const answer = await res;
  if (answer.status !== status) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

async function side(tenant: TestTenant, known: Partial<Record<TenantRole, Member>> = {}): Promise<Side> {
  return {
    tenant,
    as: {
      warga: known.warga ?? (await tenant.member("warga")),
      bendahara: known.bendahara ?? (await tenant.member("bendahara")),
      sekretaris: known.sekretaris ?? (await tenant.member("sekretaris")),
      admin: known.admin ?? (await tenant.member("admin")),
      satpam: known.satpam ?? (await tenant.member("satpam")),
    },
  };
}

export async function createWorld(): Promise<World> {
  const [tenantA, tenantB] = [await createTenant(), await createTenant()];
  const home = await household(tenantA);
  const a = await side(tenantA, { warga: home.warga, sekretaris: home.sek, admin: home.admin });
  const b = await side(tenantB);
  const objects = new Map<string, Promise<unknown>>();
  return {
    a: { ...a, household: home, otherWarga: await tenantA.member("warga") },
    b,
    operator: await operatorToken(),
    once<T>(kind: string, make: () => Promise<T>) {
      let object = objects.get(kind);
      if (!object) {
        object = make();
        objects.set(kind, object);
      }
      return object as Promise<T>;
    },
  };
}

/** A random token shaped like a reply token, opening nothing. */
export const unknownToken = () =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** A multipart form with one clean PNG, and the file store's `purpose` when given. */
export const photoForm = (purpose?: string) => {
  const form = new FormData();
  form.set("file", new File([CLEAN_PNG], "foto.png", { type: "image/png" }));
  if (purpose) {
    form.set("purpose", purpose);
  }
  return form;
};
