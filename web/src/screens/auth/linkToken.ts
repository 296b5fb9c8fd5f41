import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";

/**
 * The `token` of an emailed link (`?token=`), taken out of the address bar and the history at once, so
 * it is not left in a shared screen, a bookmark or a referrer; the screen keeps it in its state.
 */
export function useLinkToken(): string {
  const { query, path } = useLocation();
  const [token] = useState(() => {
    const found = query.token ?? "";
    if (found && typeof history !== "undefined") {
      history.replaceState(null, "", path);
    }
    return found;
  });
  return token;
}
