import { DomainError } from "../../src/core/errors";

/** The domain error code a synchronous call throws, "resolved" when it does not throw. */
export function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? error.code : `not a domain error: ${String(error)}`;
  }
  return "resolved";
}
