import { useEffect, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { t } from "../../i18n";
import { signInWithMagicLink } from "../../session";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";
import { problemText } from "../../ui/problem";
import { Loading } from "../../ui/states";
import { afterSignIn } from "./after";

/** `/login/link`: asks for a sign-in link by email (the answer never says whether the email exists). */
export function MagicLinkRequest() {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const form = useSubmit(() => api.post<{ status: string }>("/api/auth/magic-link", { email: email.trim() }));
  const onSubmit = async (event: Event) => {
    // The API answers 202 whether or not the email is known; undefined means the request failed.
    if ((await form.submit(event)) !== undefined) {
      setSent(true);
    }
  };
  return (
    <section class="card narrow" aria-labelledby="magic-title">
      <h1 id="magic-title">{t("magic.title")}</h1>
      {sent ? (
        <p role="status">{t("magic.sent")}</p>
      ) : (
        <form onSubmit={onSubmit}>
          <p>{t("magic.intro")}</p>
          <Field
            label={t("signIn.email")}
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onInput={setEmail}
            error={form.fields.email}
          />
          <FormError error={form.error} />
          <Submit busy={form.busy}>{t("magic.submit")}</Submit>
        </form>
      )}
      <p>
        <a href="/login">{t("forgot.back")}</a>
      </p>
    </section>
  );
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
