import type { SessionUser } from "../session";

/**
 * The committee's duties, apart from the console's sections so the app's shell can ask "is this person
 * an officer?" (the bottom bar's "Pengurus" tab) without loading the console.
 */
export type Duty = "admin" | "sekretaris" | "bendahara";

/** The duties among the person's roles (a resident's or a guard's roles are not duties). */
export function dutiesOf(user: Pick<SessionUser, "roles">): Duty[] {
  return user.roles.filter((r): r is Duty => r === "admin" || r === "sekretaris" || r === "bendahara");
}

/** Whether the person holds any committee duty here: they get the console. */
export const isOfficer = (user: Pick<SessionUser, "roles">): boolean => dutiesOf(user).length > 0;
