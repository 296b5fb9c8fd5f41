import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";
import { type CommitteeKey, DUTY_LIST, dutyName, tx } from "./text";
import type { InvitationOutcome } from "./types";

/** Tick boxes for duties, in a labelled group. */
export function DutyChecks(props: {
  legend: string;
  value: string[];
  onChange: (roles: string[]) => void;
  error?: string;
}) {
  const toggle = (d: string, on: boolean) =>
    props.onChange(on ? [...props.value.filter((r) => r !== d), d] : props.value.filter((r) => r !== d));
  return (
    <fieldset class="tim-checks">
      <legend>{props.legend}</legend>
      {DUTY_LIST.map((d) => (
        <label key={d}>
          <input
            type="checkbox"
            name="roles"
            value={d}
            checked={props.value.includes(d)}
            onChange={(e) => toggle(d, (e.currentTarget as HTMLInputElement).checked)}
          />
          {dutyName(d)}
        </label>
      ))}
      {props.error && <p class="field-error">{props.error}</p>}
    </fieldset>
  );
}

/** What the API answered about an invitation: sent or not, by which channel, and why not. */
export function OutcomeNotice({ name, outcome }: { name: string; outcome: InvitationOutcome }) {
  return outcome.sent ? (
    <p class="notice" role="status">
      {tx("sentVia", { name, channel: tx(`channel.${outcome.channel ?? "email"}` as CommitteeKey) })}
    </p>
  ) : (
    <div class="alert" role="alert">
      <p>{tx("notSent", { name })}</p>
      {outcome.reason && <p>{tx(`reason.${outcome.reason}` as CommitteeKey)}</p>}
      {outcome.hint && <p>{outcome.hint}</p>}
    </div>
  );
}

/** `/pengurus/tim/undang`: invite an officer or a guard by email or WhatsApp. */
export function Invite() {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [whatsapp, setWhatsapp] = useState("");
  const [roles, setRoles] = useState<string[]>([]);
  const [done, setDone] = useState<{ name: string; outcome: InvitationOutcome } | null>(null);
  const send = useSubmit((key) =>
    api.post<{ invitation: InvitationOutcome }>(
      "/api/members/invitations",
      {
        name: name.trim(),
        email: email.trim() || undefined,
        whatsapp: whatsapp.trim() || undefined,
        roles,
      },
      { idempotencyKey: key },
    ),
  );
  return (
    <section aria-labelledby="tim-invite-title" class="tim-form">
      <h1 id="tim-invite-title">{tx("inviteTitle")}</h1>
      {done ? (
        <>
          <OutcomeNotice name={done.name} outcome={done.outcome} />
          <div class="actions">
            <a href="/pengurus/tim/undangan">{tx("tabInvitations")}</a>
            <button
              type="button"
              onClick={() => {
                setDone(null);
                setName("");
                setEmail("");
                setWhatsapp("");
                setRoles([]);
              }}
            >
              {tx("inviteAgain")}
            </button>
          </div>
        </>
      ) : (
        <form
          onSubmit={async (e) => {
            const answer = await send.submit(e);
            if (answer) {
              setDone({ name: name.trim(), outcome: answer.invitation });
            }
          }}
        >
          <p class="muted">{tx("inviteHint")}</p>
          <Field
            label={tx("inviteName")}
            name="name"
            value={name}
            onInput={setName}
            required
            minLength={2}
            autoComplete="off"
            error={send.fields.name}
          />
          <Field
            label={tx("inviteEmail")}
            name="email"
            type="email"
            value={email}
            onInput={setEmail}
            autoComplete="off"
            error={send.fields.email}
          />
          <Field
            label={tx("inviteWhatsapp")}
            name="whatsapp"
            type="tel"
            inputMode="tel"
            value={whatsapp}
            onInput={setWhatsapp}
            autoComplete="off"
            error={send.fields.whatsapp}
          />
          <DutyChecks
            legend={tx("inviteDuties")}
            value={roles}
            onChange={setRoles}
            error={send.fields.roles}
          />
          <FormError error={send.error} />
          <Submit busy={send.busy}>{tx("inviteSend")}</Submit>
        </form>
      )}
    </section>
  );
}
