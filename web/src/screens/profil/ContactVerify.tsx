import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { t } from "../../i18n";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";

export type ContactChannel = "whatsapp" | "email";

/**
 * A contact of the profile with whether its holder proved it, and for one not yet proven the two steps
 * that prove it: send a code to it, type the code (issue 44: until then invitations and sign-in do not
 * match it, though messages still reach it). Its own forms, beside the profile's, never inside it.
 */
export function ContactVerify({
  channel,
  contact,
  verified,
}: {
  channel: ContactChannel;
  contact: string;
  verified: boolean;
}) {
  const [proven, setProven] = useState(verified);
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState("");
  const ask = useSubmit((key) =>
    api.post("/api/user/contacts/verify/request", { channel }, { idempotencyKey: key }),
  );
  const check = useSubmit((key) =>
    api.post("/api/user/contacts/verify", { channel, code: code.trim() }, { idempotencyKey: key }),
  );
  const label = t(channel === "whatsapp" ? "profil.whatsapp" : "profil.email");
  if (proven) {
    return (
      <p class="muted profil-contact">
        {label}: {contact} <span class="badge">{t("profil.verified")}</span>
      </p>
    );
  }
  return (
    <div class="profil-contact">
      <p>
        {label}: {contact} <span class="badge badge-urgent">{t("profil.unverified")}</span>
      </p>
      <p class="muted">{t(channel === "whatsapp" ? "profil.verifyWhyWhatsapp" : "profil.verifyWhyEmail")}</p>
      <form
        onSubmit={async (event) => {
          if (await ask.submit(event)) {
            setSent(true);
          }
        }}
      >
        <FormError error={ask.error} />
        <Submit busy={ask.busy}>{t(sent ? "profil.verifyResend" : "profil.verifySend")}</Submit>
      </form>
      {sent && (
        <form
          onSubmit={async (event) => {
            if (await check.submit(event)) {
              setProven(true);
            }
          }}
        >
          <p role="status">{t("profil.verifySent")}</p>
          <Field
            label={t("profil.verifyCode")}
            name={`code-${channel}`}
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            value={code}
            onInput={setCode}
            error={check.fields.code}
          />
          <FormError error={check.error} />
          <Submit busy={check.busy}>{t("profil.verifyConfirm")}</Submit>
        </form>
      )}
    </div>
  );
}
