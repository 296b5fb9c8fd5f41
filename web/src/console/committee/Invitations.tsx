import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date } from "../../format";
import { Field, Select, useSubmit } from "../../ui/forms";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { Confirm, DataTable } from "../ui";
import { OutcomeNotice } from "./Invite";
import { Duties } from "./Members";
import { type CommitteeKey, tx } from "./text";
import type { InvitationOutcome, PendingInvitation } from "./types";

/** `/pengurus/tim/undangan`: invitations still open; revoke one, or re-send a new account's by a contact. */
export function Invitations() {
  const list = usePaged(
    (cursor) =>
      api.get<Page<PendingInvitation>>("/api/members/invitations", { query: { cursor, limit: 20 } }),
    [],
  );
  const [revoking, setRevoking] = useState<PendingInvitation | null>(null);
  const [resending, setResending] = useState<PendingInvitation | null>(null);
  const [channel, setChannel] = useState<"email" | "whatsapp">("email");
  const [contact, setContact] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ name: string; outcome: InvitationOutcome } | null>(null);
  const revoke = useSubmit(async () => {
    await api.del(`/api/members/invitations/${revoking?.id}`);
    return true;
  });
  const resend = useSubmit((key) =>
    api
      .put<{ invitation: InvitationOutcome }>(
        `/api/members/invitations/${resending?.id}/contact`,
        channel === "email" ? { email: contact.trim() } : { whatsapp: contact.trim() },
        null,
        { idempotencyKey: key },
      )
      .then((a) => a.data),
  );
  const reload = () => (list.state === "ready" ? list.reload() : undefined);
  return (
    <section aria-labelledby="tim-inv-title">
      <h1 id="tim-inv-title">{tx("invitationsTitle")}</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {outcome && <OutcomeNotice name={outcome.name} outcome={outcome.outcome} />}
      <ShowPaged paged={list} empty={tx("noInvitations")} lines={4}>
        {(items) => (
          <DataTable
            caption={tx("invitationsCaption")}
            rowKey={(i) => i.id}
            rows={items}
            columns={[
              { label: tx("name"), cell: (i) => i.name },
              { label: tx("duties"), cell: (i) => <Duties roles={i.roles} /> },
              { label: tx("contact"), cell: (i) => i.email ?? i.whatsapp ?? "—" },
              { label: tx("kind"), cell: (i) => tx(`kind.${i.kind}` as CommitteeKey) },
              {
                label: tx("sentBy"),
                cell: (i) =>
                  `${i.sentBy?.name ?? tx("system")}${i.channel ? ` · ${tx(`channel.${i.channel}` as CommitteeKey)}` : ""}`,
              },
              { label: tx("expires"), cell: (i) => date(i.expiresAt) },
              {
                label: tx("action"),
                cell: (i) => (
                  <span class="actions">
                    {i.kind === "account" && (
                      <button
                        type="button"
                        onClick={() => {
                          setResending(i);
                          setContact("");
                          setOutcome(null);
                        }}
                        aria-label={`${tx("resend")}: ${i.name}`}
                      >
                        {tx("resend")}
                      </button>
                    )}
                    <button
                      type="button"
                      class="danger"
                      onClick={() => {
                        setRevoking(i);
                        setNotice(null);
                      }}
                      aria-label={`${tx("revoke")}: ${i.name}`}
                    >
                      {tx("revoke")}
                    </button>
                  </span>
                ),
              },
            ]}
          />
        )}
      </ShowPaged>
      <Confirm
        open={revoking !== null}
        title={tx("revokeConfirm", { name: revoking?.name ?? "" })}
        confirmLabel={tx("revokeYes")}
        danger
        busy={revoke.busy}
        error={revoke.error}
        onCancel={() => setRevoking(null)}
        onConfirm={async () => {
          const name = revoking?.name ?? "";
          if (await revoke.submit()) {
            setRevoking(null);
            setNotice(tx("revoked", { name }));
            reload();
          }
        }}
      />
      <Confirm
        open={resending !== null}
        title={`${tx("resend")}: ${resending?.name ?? ""}`}
        confirmLabel={tx("resend")}
        busy={resend.busy}
        error={resend.error}
        onCancel={() => setResending(null)}
        onConfirm={async () => {
          const name = resending?.name ?? "";
          const answer = await resend.submit();
          if (answer) {
            setResending(null);
            setOutcome({ name, outcome: answer.invitation });
            reload();
          }
        }}
      >
        <Select
          label={tx("via")}
          name="channel"
          value={channel}
          onInput={(v) => setChannel(v as "email" | "whatsapp")}
          options={[
            { value: "email", label: tx("inviteEmail") },
            { value: "whatsapp", label: tx("inviteWhatsapp") },
          ]}
        />
        <Field
          label={channel === "email" ? tx("inviteEmail") : tx("inviteWhatsapp")}
          name="contact"
          type={channel === "email" ? "email" : "tel"}
          value={contact}
          onInput={setContact}
          required
          error={resend.fields.email ?? resend.fields.whatsapp}
        />
      </Confirm>
    </section>
  );
}
