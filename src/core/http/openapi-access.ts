import { z } from "zod";
import { DUTIES, type Duty } from "../context";
import { FEATURE_FLAGS } from "../flags";
import type { Access, RouteDef } from "./access";

/**
 * `x-warga-access` on every operation of /openapi.json (issue 42 item 5): who may call it, read from the
 * very access line the guard enforces (RouteDef.access), so a console builds its menus from the document
 * instead of collecting 403s. Defined once here; the document publishes this schema under
 * `x-warga-extensions` and test/core/openapi-contract.test.ts compares every operation with the route table.
 *
 * - `tenant`: a member of the community in the caller's token. `duties` are the duties that admit the
 *   caller (any one suffices; `satpam` is the gate guard), `residents` says whether living in the
 *   community (a house, or no duty at all) suffices on its own.
 * - `public`: anyone, no credentials. `public-tenant`: anyone, inside the community the path's `{slug}`
 *   names (its tenant checks and flag still apply).
 * - `user`: any signed-in user, whether or not the token names a community (an operator too).
 * - `platform`: a platform operator (`super_admin`), never a community member.
 * - `device`: a gate device with its own key (the `gateDeviceKey` scheme).
 * - `service`: the platform's own Workers, with the internal service key; never a client.
 *
 * `flag` names the community's feature flag that must be on; off, the route answers 403 `feature_disabled`.
 */
const Flag = z.enum(FEATURE_FLAGS).describe("The community's feature flag that must be on.");

export const WargaAccess = z
  .discriminatedUnion("scope", [
    z.object({ scope: z.literal("public") }),
    z.object({ scope: z.literal("public-tenant"), flag: Flag.optional() }),
    z.object({ scope: z.literal("user") }),
    z.object({ scope: z.literal("platform") }),
    z.object({ scope: z.literal("device"), flag: Flag }),
    z.object({ scope: z.literal("service") }),
    z.object({
      scope: z.literal("tenant"),
      duties: z
        .array(z.enum(DUTIES))
        .describe("The duties that admit the caller: any one of them suffices (`satpam` is the gate guard)."),
      residents: z
        .boolean()
        .describe("Whether living in the community (role `warga`) admits the caller whatever their duties."),
      flag: Flag.optional(),
    }),
  ])
  .describe(
    "Who may call this operation, from the access line the server enforces. `tenant`: a member of the " +
      "community in the token, admitted by one of `duties` or, when `residents`, by living there. " +
      "`public`: anyone. `public-tenant`: anyone, inside the community the path's `{slug}` names. `user`: " +
      "any signed-in user. `platform`: a platform operator. `device`: a gate device's key. `service`: the " +
      "platform's own Workers (internal key). `flag`: the community's feature flag that must be on.",
  );
export type WargaAccess = z.infer<typeof WargaAccess>;

/** The extension's name on each operation. */
export const ACCESS_EXTENSION = "x-warga-access";

/** The access line as the document states it: duties in DUTIES order, residency apart. */
export function wargaAccess(access: Access): WargaAccess {
  switch (access.scope) {
    case "tenant":
      return {
        scope: "tenant",
        duties: DUTIES.filter((duty: Duty) => access.roles.includes(duty)),
        residents: access.roles.includes("warga"),
        ...(access.flag ? { flag: access.flag } : {}),
      };
    case "public-tenant":
      return { scope: "public-tenant", ...(access.flag ? { flag: access.flag } : {}) };
    case "device":
      return { scope: "device", flag: access.flag };
    default:
      return { scope: access.scope };
  }
}

/**
 * An operation's id: its endpoint class's name in lower camel case (`CreateVisitor` → `createVisitor`),
 * the method name a client generator gives it. chanfana's own (`post_CreateVisitor`) carried the HTTP
 * method and an underscore. One endpoint class per route keeps them unique (kependudukan's
 * ListHouseholdCorrections says why); the contract test checks it.
 */
export function operationIdOf(route: Pick<RouteDef, "endpoint">): string {
  const name = route.endpoint.name;
  return name.charAt(0).toLowerCase() + name.slice(1);
}
