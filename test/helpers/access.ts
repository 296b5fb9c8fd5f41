import type { TenantRole } from "../../src/core/context";
import type { FeatureFlag } from "../../src/core/flags";

/**
 * Who may call every route, written by hand from the spec (its "Who" column and its Authentication
 * section), ARCHITECTURE.md's role table and the module issues (2–8), never read from the route table:
 * that is what lets the role walk catch a wrong `access:` line in a module's index.ts. Nothing here is
 * imported from src/ but the two type names.
 *
 * Each module keeps its lines in `test/modules/<module>/access.ts` (core's own routes in
 * `test/core/access.ts`); test/modules/access.ts collects them for the role walk and the isolation walk.
 * This file is the vocabulary they share.
 *
 * Reading rules, so that each line can be checked against its source:
 * - Issue 27: roles are duties held on top of residency. `warga` in a line means "lives in the
 *   community" (has a house there, or holds no duty at all): a ketua, sekretaris or bendahara with a
 *   house passes every R line; one without a house does not. The walk checks each duty alone, each duty
 *   plus residency, and the resident with no duty.
 * - The spec's R is the resident (`warga`); its S, "community staff (pengurus)", is every staff role
 *   (bendahara, sekretaris, admin); an issue's "(staff)" means the same S.
 * - `satpam` (issue 27: "gate guard: today's guest list, pass check-in and check-out, nothing else")
 *   is in GATE and in no other line; a guard who also lives there reaches the R lines as a resident.
 * - Issue 42: an S row of the spec is every staff duty unless the spec's authentication section narrows
 *   it, and only the registry is narrowed there ("opened by secretary and admin roles"). So poll
 *   management, the letter console and PDFs, subscription billing and support tickets are S (issues 5,
 *   7, 8 and 15 had narrowed them to sekretaris and admin, or to admin). Routes the spec does not list
 *   keep their issue's roles: issue 6 gives gate devices to admin, issue 29 the RW's acknowledgement of
 *   letters to the RW's sekretaris and admin.
 * - `/api/platform/*` is super_admin only (issue 3); P (public) routes need no login.
 * - Flags as the spec names them: pasar, tamu (guest book and its gate), musyawarah, surat (letters),
 *   warga (population registry plus resident accounts). Complaints, suggestions and proposals, the
 *   dashboard and support tickets have none (issue 8 puts only letters under `surat`).
 *
 * Where a table and the code disagree, the table keeps the spec's answer and the disagreement is
 * listed in that file's DISAGREEMENTS (see Disagreement below), until the lead settles it in the code
 * or in the table.
 */

/** `user`: any signed-in user, operators included; `device`: a gate device's API key. */
export type Who = "public" | "service" | "user" | "platform" | "device" | readonly TenantRole[];

export interface Expectation {
  who: Who;
  flag?: FeatureFlag;
}

/** One module's lines, keyed `METHOD /path` as in the route table. */
export type AccessTable = Readonly<Record<string, Expectation>>;

export const R = ["warga"] as const;
export const S = ["bendahara", "sekretaris", "admin"] as const;
export const R_S = ["warga", "bendahara", "sekretaris", "admin"] as const;
export const SEK_ADMIN = ["sekretaris", "admin"] as const;
export const ADMIN = ["admin"] as const;
export const FINANCE = ["bendahara", "admin"] as const;
export const R_FINANCE = ["warga", "bendahara", "admin"] as const;
export const GATE = ["bendahara", "sekretaris", "admin", "satpam"] as const;

export const pub: Expectation = { who: "public" };
export const user: Expectation = { who: "user" };
export const platform: Expectation = { who: "platform" };

export interface Disagreement {
  /** The tenant roles whose answer differs between the spec (the table) and the code today. */
  roles: readonly TenantRole[];
  why: string;
}

/**
 * Routes where the code does not do what the spec says, for the lead to decide; a module's access.ts
 * exports them as DISAGREEMENTS beside its ACCESS. The walk checks every other cell; each entry runs as
 * an expected failure (`it.fails`), so the day the code follows the spec the walk says so and the entry
 * is removed (or the table's line changes, if the code was right).
 */
export type Disagreements = Readonly<Record<string, Disagreement>>;
