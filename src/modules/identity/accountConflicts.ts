import { isUniqueViolation } from "../../core/db/errors";
import { Conflict } from "../../core/errors";

/** 409 `person_taken`: the registry person already belongs to another account of the community. */
export function personTaken(): Conflict {
  return new Conflict(
    "person_taken",
    "This person on the family card already has an account in this community.",
  );
}

/**
 * Whether a batch with `createResidentAccount`'s statements failed because someone took the email or
 * number, or made the membership, between the check and the batch.
 */
export function isAccountConflict(error: unknown): boolean {
  return (
    isUniqueViolation(error, "users.email") ||
    isUniqueViolation(error, "users.whatsapp") ||
    isUniqueViolation(error, "memberships.user_id")
  );
}

/**
 * Whether a batch with a membership's statements (an invitation, an accepted join link) failed because
 * another account was linked to the same registry person meanwhile: answer 409 `person_taken`.
 */
export function isPersonTaken(error: unknown): boolean {
  return isUniqueViolation(error, "memberships.person_id");
}
