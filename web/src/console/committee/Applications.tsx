import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date } from "../../format";
import { Select, TextArea, useSubmit } from "../../ui/forms";
import { type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { Confirm, DataTable } from "../ui";
import { OutcomeNotice } from "./Invite";
import { PersonPicker } from "./PersonPicker";
import { type CommitteeKey, tx } from "./text";
import type { Application, InvitationOutcome } from "./types";

const STATUSES = ["menunggu", "disetujui", "ditolak"] as const;

/** The registry's house for an application's block and number, if there is one. */
async function unitOf(a: Application): Promise<string | null> {
  const units = await api.get<Page<{ id: string; number: string }>>("/api/kependudukan/units", {
    query: { block: a.block, limit: 100 },
  });
  return units.items.find((u) => u.number === a.houseNumber)?.id ?? null;
}

function ApprovePerson(props: { app: Application; value: string; onInput: (v: string) => void }) {
  const house = `${props.app.block}-${props.app.houseNumber}`;
  const unit = useResource(() => unitOf(props.app), [props.app.id]);
  return (
    <Show resource={unit} lines={1}>
      {(unitId) =>
        unitId ? (
          <PersonPicker
            unitId={unitId}
            label={tx("approvePerson", { house })}
            noneLabel={tx("approveNoPerson")}
            emptyText={tx("approveNoCards", { house })}
            value={props.value}
            onInput={props.onInput}
          />
        ) : (
          <p class="muted">{tx("approveNoCards", { house })}</p>
        )
      }
    </Show>
  );
}

/** `/pengurus/tim/pendaftaran`: applications to join, by status; approve (with the person link) or reject. */
export function Applications() {
  const [status, setStatus] = useState<string>("menunggu");
  const list = usePaged(
    (cursor) => api.get<Page<Application>>("/api/applications", { query: { status, cursor, limit: 20 } }),
    [status],
  );
  const [deciding, setDeciding] = useState<{ app: Application; approve: boolean } | null>(null);
  const [personId, setPersonId] = useState("");
  const [reason, setReason] = useState("");
  const [done, setDone] = useState<{ text: string; outcome: InvitationOutcome | null; name: string } | null>(
    null,
  );
  const decide = useSubmit(() => {
    const d = deciding;
    if (!d) {
      return Promise.resolve(null);
    }
    return api
      .put<{ application: Application; invitation: InvitationOutcome | null }>(
        `/api/applications/${d.app.id}`,
        d.approve
          ? { status: "disetujui", personId: personId || undefined }
          : { status: "ditolak", reason: reason.trim() || undefined },
        null,
      )
      .then((a) => a.data);
  });
  const open = (app: Application, approve: boolean) => {
    setDeciding({ app, approve });
    setPersonId("");
    setReason("");
    setDone(null);
  };
  return (
    <section aria-labelledby="tim-apps-title">
      <h1 id="tim-apps-title">{tx("appsTitle")}</h1>
      <div class="filters">
        <Select
          label={tx("status")}
          name="status"
          value={status}
          onInput={setStatus}
          options={STATUSES.map((s) => ({ value: s, label: tx(`app.${s}` as CommitteeKey) }))}
        />
      </div>
      {done && (
        <>
          <p class="notice" role="status">
            {done.text}
          </p>
          {done.outcome && <OutcomeNotice name={done.name} outcome={done.outcome} />}
        </>
      )}
      <ShowPaged paged={list} empty={tx("noApps")} lines={4}>
        {(items) => (
          <DataTable
            caption={tx("appsCaption")}
            rowKey={(a) => a.id}
            rows={items}
            columns={[
              { label: tx("applicant"), cell: (a) => a.fullName },
              { label: tx("contact"), cell: (a) => [a.whatsapp, a.email].filter(Boolean).join(" · ") },
              { label: tx("house"), cell: (a) => `${a.block}-${a.houseNumber}` },
              { label: tx("applied"), cell: (a) => date(a.createdAt) },
              {
                label: tx("status"),
                cell: (a) =>
                  a.status === "menunggu" ? (
                    <span class="actions">
                      <button
                        type="button"
                        onClick={() => open(a, true)}
                        aria-label={`${tx("approve")}: ${a.fullName}`}
                      >
                        {tx("approve")}
                      </button>
                      <button
                        type="button"
                        class="danger"
                        onClick={() => open(a, false)}
                        aria-label={`${tx("reject")}: ${a.fullName}`}
                      >
                        {tx("reject")}
                      </button>
                    </span>
                  ) : (
                    <span>
                      {tx(`app.${a.status}` as CommitteeKey)}
                      {a.reason && <span class="muted"> · {a.reason}</span>}
                    </span>
                  ),
              },
            ]}
          />
        )}
      </ShowPaged>
      <Confirm
        open={deciding !== null}
        title={
          deciding?.approve
            ? tx("approveTitle", { name: deciding.app.fullName })
            : tx("rejectTitle", { name: deciding?.app.fullName ?? "" })
        }
        confirmLabel={deciding?.approve ? tx("approve") : tx("reject")}
        danger={!deciding?.approve}
        busy={decide.busy}
        error={decide.error}
        onCancel={() => setDeciding(null)}
        onConfirm={async () => {
          const d = deciding;
          const answer = await decide.submit();
          if (d && answer) {
            setDeciding(null);
            const name = d.app.fullName;
            setDone({
              name,
              text: d.approve ? tx("approved", { name }) : tx("rejected", { name }),
              outcome: answer.invitation,
            });
            if (list.state === "ready") {
              list.reload();
            }
          }
        }}
      >
        {deciding?.approve ? (
          <ApprovePerson app={deciding.app} value={personId} onInput={setPersonId} />
        ) : (
          <TextArea label={tx("reason")} name="reason" value={reason} onInput={setReason} rows={3} />
        )}
      </Confirm>
    </section>
  );
}
