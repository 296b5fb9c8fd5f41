import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { dateTime } from "../../format";
import { Field } from "../../ui/forms";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { DataTable } from "../ui";
import { tx } from "./text";
import type { AuditEntry } from "./types";

/** `/pengurus/tim/audit`: the community's audit trail, newest first, by Jakarta days and action. */
export function Audit() {
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [action, setAction] = useState("");
  const [applied, setApplied] = useState({ from: "", to: "", action: "" });
  const list = usePaged(
    (cursor) =>
      api.get<Page<AuditEntry>>("/api/audit", {
        query: {
          from: applied.from || undefined,
          to: applied.to || undefined,
          action: applied.action || undefined,
          cursor,
          limit: 30,
        },
      }),
    [applied],
  );
  return (
    <section aria-labelledby="tim-audit-title">
      <h1 id="tim-audit-title">{tx("auditTitle")}</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ from, to, action: action.trim() });
        }}
      >
        <Field label={tx("from")} name="from" type="date" value={from} onInput={setFrom} />
        <Field label={tx("to")} name="to" type="date" value={to} onInput={setTo} />
        <Field label={tx("action")} name="action" value={action} onInput={setAction} />
        <button type="submit">{tx("apply")}</button>
      </form>
      <ShowPaged paged={list} empty={tx("noAudit")} lines={8}>
        {(items) => (
          <DataTable
            caption={tx("auditCaption")}
            rowKey={(e) => e.id}
            rows={items}
            columns={[
              { label: tx("when"), cell: (e) => dateTime(e.createdAt) },
              {
                label: tx("actor"),
                cell: (e) =>
                  e.actorName ? `${e.actorName}${e.actorRole ? ` (${e.actorRole})` : ""}` : tx("system"),
              },
              { label: tx("action"), cell: (e) => <code>{e.action}</code> },
              {
                label: tx("target"),
                cell: (e) => `${e.targetType}${e.targetId ? ` · ${e.targetId}` : ""}`,
              },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}
