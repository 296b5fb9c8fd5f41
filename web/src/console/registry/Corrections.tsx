import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date } from "../../format";
import { useLanguage } from "../../i18n";
import { Select, TextArea, useSubmit } from "../../ui/forms";
import type { Page } from "../../ui/states";
import { ShowPaged, usePaged } from "../../ui/states";
import { Confirm, DataTable } from "../ui";
import { fieldLabel, tx } from "./text";
import { BASE } from "./types";

interface Correction {
  id: string;
  memberName: string | null;
  field: string;
  value: string;
  note: string | null;
  status: "diajukan" | "diterima" | "ditolak";
  reason: string | null;
  createdAt: string;
}

const STATUSES = ["diajukan", "diterima", "ditolak"] as const;

/** `/pengurus/warga/koreksi`: what residents asked to correct, accepted (applied at once) or rejected. */
export function Corrections() {
  useLanguage();
  const [status, setStatus] = useState<string>("diajukan");
  const [deciding, setDeciding] = useState<{ c: Correction; accept: boolean } | null>(null);
  const [reason, setReason] = useState("");
  const [done, setDone] = useState(false);
  const paged = usePaged<Correction>(
    (cursor) =>
      api.get<Page<Correction>>(`${BASE}/corrections`, {
        query: { limit: 25, cursor, status: status || undefined },
      }),
    [status],
  );
  const decide = useSubmit(async () => {
    if (!deciding) {
      return false;
    }
    await api.put(
      `${BASE}/corrections/${deciding.c.id}`,
      deciding.accept ? { status: "diterima" } : { status: "ditolak", reason },
      null,
    );
    return true;
  });
  return (
    <section aria-labelledby="corr-title">
      <h1 id="corr-title">{tx("correctionsTitle")}</h1>
      {done && (
        <p class="notice" role="status">
          {tx("decided")}
        </p>
      )}
      <div class="filters">
        <Select
          label={tx("corrStatus")}
          name="status"
          value={status}
          onInput={setStatus}
          options={STATUSES.map((s) => ({ value: s, label: tx(`cs_${s}`) }))}
        />
      </div>
      <ShowPaged paged={paged} empty={tx("noCorrections")}>
        {(items) => (
          <DataTable
            caption={tx("correctionsCaption")}
            rows={items}
            rowKey={(c) => c.id}
            columns={[
              { label: tx("name"), cell: (c) => c.memberName ?? tx("none") },
              { label: tx("field"), cell: (c) => fieldLabel(c.field) },
              {
                label: tx("value"),
                cell: (c) => (
                  <span>
                    {c.value}
                    {c.note ? <span class="muted reg-block">{c.note}</span> : null}
                  </span>
                ),
              },
              { label: tx("asked"), cell: (c) => date(c.createdAt) },
              {
                label: tx("actions"),
                cell: (c) =>
                  c.status === "diajukan" ? (
                    <span class="reg-row-actions">
                      <button
                        type="button"
                        class="reg-small"
                        aria-label={`${tx("approve")}: ${fieldLabel(c.field)} ${c.memberName ?? ""}`}
                        onClick={() => setDeciding({ c, accept: true })}
                      >
                        {tx("approve")}
                      </button>
                      <button
                        type="button"
                        class="reg-small danger"
                        aria-label={`${tx("reject")}: ${fieldLabel(c.field)} ${c.memberName ?? ""}`}
                        onClick={() => setDeciding({ c, accept: false })}
                      >
                        {tx("reject")}
                      </button>
                    </span>
                  ) : (
                    <span>
                      {tx(`cs_${c.status}`)}
                      {c.reason ? `: ${c.reason}` : ""}
                    </span>
                  ),
              },
            ]}
          />
        )}
      </ShowPaged>
      <Confirm
        open={deciding !== null}
        title={deciding?.accept ? tx("approveTitle") : tx("rejectTitle")}
        confirmLabel={deciding?.accept ? tx("approve") : tx("reject")}
        danger={deciding ? !deciding.accept : false}
        busy={decide.busy}
        error={decide.error}
        onCancel={() => setDeciding(null)}
        onConfirm={async () => {
          if (await decide.submit()) {
            setDeciding(null);
            setReason("");
            setDone(true);
            if (paged.state === "ready") {
              paged.reload();
            }
          }
        }}
      >
        {deciding && !deciding.accept && (
          <TextArea
            label={tx("reason")}
            name="reason"
            value={reason}
            onInput={setReason}
            required
            rows={3}
            error={decide.fields.reason}
          />
        )}
      </Confirm>
    </section>
  );
}
