import { useEffect, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { t } from "../../i18n";
import { signInWithCode, signInWithWhatsappCode } from "../../session";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";
import { afterSignIn } from "./after";

/**
 * `/login/whatsapp`: signing in without email (issue 45). The number first (the answer never says
 * whether it has an account), then the six-digit code WhatsApp brought.
 */
export function WhatsappSignIn() {
  const { route, query } = useLocation();
  const [whatsapp, setWhatsapp] = useState("");
  const [code, setCode] = useState("");
  const [asked, setAsked] = useState(false);
  const request = useSubmit(() => api.post("/api/auth/otp/request", { whatsapp: whatsapp.trim() }));
  const verify = useSubmit(() =>
    signInWithWhatsappCode({
      whatsapp: whatsapp.trim(),
      code: code.trim(),
      tenant: query.tenant || undefined,
    }),
  );
  const onRequest = async (event: Event) => {
    if ((await request.submit(event)) !== undefined) {
      setAsked(true);
    }
  };
  const onVerify = async (event: Event) => {
    if (await verify.submit(event)) {
      afterSignIn(route, query.next);
    }
  };
  return (
    <section class="card narrow" aria-labelledby="wa-title">
      <h1 id="wa-title">{t("code.whatsappTitle")}</h1>
      {asked ? (
        <form onSubmit={onVerify}>
          <p class="notice" role="status">
            {t("code.sent")}
          </p>
          <Field
            label={t("code.otp")}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            value={code}
            onInput={setCode}
            error={verify.fields.code}
          />
          <FormError error={verify.error} />
          <Submit busy={verify.busy}>{t("signIn.submit")}</Submit>
          <button type="button" class="link-button" onClick={() => setAsked(false)}>
            {t("code.again")}
          </button>
        </form>
      ) : (
        <form onSubmit={onRequest}>
          <p>{t("code.whatsappIntro")}</p>
          <Field
            label={t("code.whatsapp")}
            name="whatsapp"
            type="tel"
            autoComplete="tel"
            required
            value={whatsapp}
            onInput={setWhatsapp}
            error={request.fields.whatsapp}
          />
          <FormError error={request.error} />
          <Submit busy={request.busy}>{t("code.send")}</Submit>
        </form>
      )}
      <a href="/login">{t("code.back")}</a>
    </section>
  );
}

/**
 * `/auth/code`: the code an officer handed over, typed, or `?code=` from its QR, which signs in at
 * once (the code leaves the address bar first).
 */
export function SignInCode() {
  const { route, query } = useLocation();
  const [code, setCode] = useState(query.code ?? "");
  const form = useSubmit(() => signInWithCode(code.trim()));
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !query.code) {
      return;
    }
    started.current = true;
    history.replaceState(null, "", "/auth/code");
    form.submit().then((user) => user && afterSignIn(route));
  }, [query.code, route, form]);
  const onSubmit = async (event: Event) => {
    if (await form.submit(event)) {
      afterSignIn(route);
    }
  };
  return (
    <section class="card narrow" aria-labelledby="code-title">
      <h1 id="code-title">{t("code.officerTitle")}</h1>
      <p>{t("code.officerIntro")}</p>
      <form onSubmit={onSubmit}>
        <Field
          label={t("code.officerCode")}
          name="code"
          autoComplete="one-time-code"
          required
          value={code}
          onInput={setCode}
          error={form.fields.code}
        />
        <FormError error={form.error} />
        <Submit busy={form.busy}>{t("signIn.submit")}</Submit>
      </form>
      <a href="/login">{t("code.back")}</a>
    </section>
  );
}
