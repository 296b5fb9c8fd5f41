import { useEffect, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { t } from "../../i18n";
import { signInWithMagicLink } from "../../session";
import { problemText } from "../../ui/problem";
import { Loading } from "../../ui/states";
import { afterSignIn } from "./after";
import { EmailLinkForm } from "./EmailLinkForm";

/** `/login/link`: asks for a sign-in link by email (the answer never says whether the email exists). */
export function MagicLinkRequest() {
  return <EmailLinkForm kind="magic" path="/api/auth/magic-link" />;
}

/** `/auth/magic-link?token=`: where the emailed link lands; the token is spent once, then home. */
export function MagicLinkLanding() {
  const { query, route } = useLocation();
  const [error, setError] = useState<unknown>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) {
      return;
    }
    started.current = true;
    const token = query.token ?? "";
    // The token leaves the address bar and the history before anything else happens.
    history.replaceState(null, "", "/auth/magic-link");
    signInWithMagicLink(token).then(
      () => afterSignIn(route),
      (caught: unknown) => setError(caught),
    );
  }, [query.token, route]);
  return (
    <section class="card narrow" aria-labelledby="magic-landing-title">
      <h1 id="magic-landing-title">{t("magic.title")}</h1>
      {error ? (
        <>
          <p class="alert" role="alert">
            {problemText(error)} {t("magic.failed")}
          </p>
          <a href="/login/link">{t("magic.again")}</a>
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
