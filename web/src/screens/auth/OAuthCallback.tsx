import { useEffect, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type MessageKey, t, useLanguage } from "../../i18n";
import { signInWithOAuthCode } from "../../session";
import { problemText } from "../../ui/problem";
import { Loading } from "../../ui/states";
import { afterSignIn } from "./after";

/** The reasons the API's callback gives (`?error=`) that a person can act on; others read as a failure. */
const REASONS = new Set(["access_denied", "account_not_found", "email_not_verified"]);

/**
 * `/auth/callback`: where a Google (OpenID Connect) sign-in returns. The API's callback has checked the
 * provider's answer and sends a one-time `code` (2 minutes), which is exchanged here for a session (the
 * refresh token as the HttpOnly cookie, as for every sign-in of the app); or an `error` naming why not.
 */
export function OAuthCallback() {
  useLanguage();
  const { query, route } = useLocation();
  const [failure, setFailure] = useState<{ reason?: string; error?: unknown } | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) {
      return;
    }
    started.current = true;
    const { code, error } = query;
    // The code leaves the address bar and the history before anything else happens.
    history.replaceState(null, "", "/auth/callback");
    if (!code) {
      setFailure({ reason: error ?? "invalid_request" });
      return;
    }
    signInWithOAuthCode(code).then(
      () => afterSignIn(route),
      (caught: unknown) => setFailure({ error: caught }),
    );
  }, [query, route]);
  const reason = failure?.reason && REASONS.has(failure.reason) ? failure.reason : "failed";
  return (
    <section class="card narrow" aria-labelledby="oauth-title">
      <h1 id="oauth-title">{t("auth.oauthTitle")}</h1>
      {failure ? (
        <>
          <p class="alert" role="alert">
            {failure.error ? problemText(failure.error) : t(`auth.oauth.${reason}` as MessageKey)}
          </p>
          <a href="/login">{t("forgot.back")}</a>
        </>
      ) : (
        <>
          <p>{t("magic.landing")}</p>
          <Loading lines={1} />
        </>
      )}
    </section>
  );
}
