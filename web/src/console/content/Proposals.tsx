import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date, money } from "../../format";
import { Select, TextArea, useSubmit } from "../../ui/forms";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { Confirm, DataTable } from "../ui";
import { type ContentKey, tx } from "./text";
import type { Proposal } from "./types";

const STATUSES = ["diajukan", "diterima", "ditolak"] as const;

/** `/pengurus/konten/usulan`: residents' proposals by status; accept or reject one with a note. */
export function Proposals() {
  const [status, setStatus] = useState("diajukan");
  const list = usePaged(
    (cursor) => api.get<Page<Proposal>>("/api/usulan", { query: { status, cursor, limit: 20 } }),
    [status],
  );
  const [deciding, setDeciding] = useState<{ p: Proposal; accept: boolean } | null>(null);
  const [note, setNote] = useState("");
  const [done, setDone] = useState(false);
  const decide = useSubmit(async () => {
    await api.put<Proposal>(
      `/api/usulan/${deciding?.p.id}`,
      { status: deciding?.accept ? "diterima" : "ditolak", note: note.trim() },
      null,
    );
    return true;
  });
  return (
    <section aria-labelledby="konten-usulan-title">
      <h1 id="konten-usulan-title">{tx("usulanTitle")}</h1>
      <div class="filters">
        <Select
          label={tx("status")}
          name="status"
          value={status}
          onInput={setStatus}
          options={STATUSES.map((s) => ({ value: s, label: tx(`usulan.${s}` as ContentKey) }))}
        />
      </div>
      {done && (
        <p class="notice" role="status">
          {tx("decided")}
        </p>
      )}
      <ShowPaged paged={list} empty={tx("noUsulan")} lines={4}>
        {(items) => (
          <DataTable
            caption={tx("usulanCaption")}
            rowKey={(p) => p.id}
            rows={items}
            columns={[
              {
                label: tx("titleLabel"),
                cell: (p) => (
                  <span>
                    <strong>{p.title}</strong>
                    <br />
                    <span class="muted">{p.description}</span>
                  </span>
                ),
              },
              {
                label: tx("cost"),
                cell: (p) => (p.estimatedCost === null ? "—" : money(p.estimatedCost)),
                numeric: true,
              },
              { label: tx("endorsements"), cell: (p) => p.endorsements, numeric: true },
              { label: tx("when"), cell: (p) => date(p.createdAt) },
              {
                label: tx("action"),
                cell: (p) =>
                  p.status === "diajukan" ? (
                    <span class="actions">
                      <button
                        type="button"
                        onClick={() => {
                          setDeciding({ p, accept: true });
                          setNote("");
                          setDone(false);
                        }}
                        aria-label={`${tx("accept")}: ${p.title}`}
                      >
                        {tx("accept")}
                      </button>
                      <button
                        type="button"
                        class="danger"
                        onClick={() => {
                          setDeciding({ p, accept: false });
                          setNote("");
                          setDone(false);
                        }}
                        aria-label={`${tx("reject")}: ${p.title}`}
                      >
                        {tx("reject")}
                      </button>
                    </span>
                  ) : (
                    <span>
                      {tx(`usulan.${p.status}` as ContentKey)}
                      {p.note && <span class="muted"> · {p.note}</span>}
                    </span>
                  ),
              },
            ]}
          />
        )}
      </ShowPaged>
      <Confirm
        open={deciding !== null}
        title={tx("decideTitle", {
          action: deciding?.accept ? tx("accept") : tx("reject"),
          title: deciding?.p.title ?? "",
        })}
        confirmLabel={deciding?.accept ? tx("accept") : tx("reject")}
        danger={!deciding?.accept}
        busy={decide.busy}
        error={decide.error}
        onCancel={() => setDeciding(null)}
        onConfirm={async () => {
          if (await decide.submit()) {
            setDeciding(null);
            setDone(true);
            if (list.state === "ready") {
              list.reload();
            }
          }
        }}
      >
        <TextArea
          label={tx("note")}
          name="note"
          value={note}
          onInput={setNote}
          rows={3}
          required
          maxLength={1000}
        />
      </Confirm>
    </section>
  );
}
