import type { Actor } from "../../core/context";
import { Unauthorized } from "../../core/errors";

/** The signed-in user behind a service call; verbs of user, tenant and platform routes use it. */
export function userActor(actor: Actor): Extract<Actor, { kind: "user" }> {
  if (actor.kind !== "user") {
    throw new Unauthorized();
  }
  return actor;
}
