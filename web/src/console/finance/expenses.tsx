import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date, jakartaDay, money } from "../../format";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { ShowPaged, usePaged } from "../../ui/states";
import { cx } from "../text";
import { Confirm, DataTable } from "../ui";
import { rupiahInput, Status, useDuty } from "./common";
import { fx } from "./text";

interface Expense {
  id: string;
  category: string;
  amount: number;
  date: string;
  description: string;
  status: "diajukan" | "disetujui" | "ditolak";
  reason: string | null;
  submittedBy: string;
  decidedAt: string | null;
}

/**
 * `/pengurus/keuangan/pengeluaran`: expenses by status; the finance officers submit one, and another
 * officer approves or rejects it. The API keeps the duties apart (the submitter never decides their own,
 * a treasurer's goes to the head): its refusal is shown as it is given.
 */
export function Expenses() {
  const duty = useDuty();
  const [status, setStatus] = useState("");
  const [tick, setTick] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const list = usePaged(
    (cursor) =>
      api.get<{ items: Expense[]; nextCursor: string | null }>("/api/pengeluaran", {
        query: { status: status || undefined, limit: 20, cursor },
      }),
    [status, tick],
  );
  const [deciding, setDeciding] = useState<{ expense: Expense; status: "disetujui" | "ditolak" } | null>(
    null,
  );
  const [reason, setReason] = useState("");
  const decide = useSubmit(async (key) => {
    if (!deciding) {
      return;
    }
    await api.put(
      `/api/pengeluaran/${deciding.expense.id}`,
      { status: deciding.status, ...(reason.trim() ? { reason: reason.trim() } : {}) },
      null,
      { idempotencyKey: key },
    );
    setNotice(`${fx(deciding.status)}: ${deciding.expense.description}`);
    setDeciding(null);
    setReason("");
    setTick((n) => n + 1);
  });
  return (
    <section aria-labelledby="fin-exp">
      <h1 id="fin-exp">{fx("expenses")}</h1>
      <p class="muted">{fx("separation")}</p>
      {notice ? (
        <p class="card" role="status">
          {notice}
        </p>
      ) : null}
      {duty.finance ? (
        <NewExpense
          onSaved={() => {
            setNotice(fx("submitted"));
            setTick((n) => n + 1);
          }}
        />
      ) : null}
      <div class="filters">
        <Select
          label={fx("status")}
          name="status"
          value={status}
          onInput={setStatus}
          options={[
            { value: "", label: cx("all") },
            { value: "diajukan", label: fx("diajukan") },
            { value: "disetujui", label: fx("disetujui") },
            { value: "ditolak", label: fx("ditolak") },
          ]}
        />
      </div>
      <ShowPaged paged={list} empty={fx("noExpenses")}>
        {(items) => (
          <DataTable
            caption={fx("expenses")}
            rowKey={(e) => e.id}
            rows={items}
            columns={[
              { label: fx("date"), cell: (e) => date(e.date) },
              {
                label: fx("description"),
                cell: (e) => (
                  <div class="fin-cell">
                    {e.description}
                    <div class="muted">{e.category}</div>
                    {e.reason ? <div class="muted">{`${fx("reason")}: ${e.reason}`}</div> : null}
                  </div>
                ),
              },
              { label: fx("amount"), numeric: true, cell: (e) => money(e.amount) },
              { label: fx("status"), cell: (e) => <Status value={e.status} /> },
              ...(duty.finance
                ? [
                    {
                      label: fx("actions"),
                      cell: (e: Expense) =>
                        e.status === "diajukan" ? (
                          <div class="fin-row-actions">
                            <button
                              type="button"
                              onClick={() => setDeciding({ expense: e, status: "disetujui" })}
                            >
                              {fx("approve")}
                            </button>
                            <button
                              type="button"
                              onClick={() => setDeciding({ expense: e, status: "ditolak" })}
                            >
                              {fx("reject")}
                            </button>
                          </div>
                        ) : null,
                    },
                  ]
                : []),
            ]}
          />
        )}
      </ShowPaged>
      <Confirm
        open={deciding !== null}
        title={
          deciding
            ? fx(deciding.status === "disetujui" ? "approveTitle" : "rejectTitle", {
                amount: money(deciding.expense.amount),
              })
            : ""
        }
        confirmLabel={deciding?.status === "ditolak" ? fx("reject") : fx("approve")}
        danger={deciding?.status === "ditolak"}
        busy={decide.busy}
        error={decide.error}
        onConfirm={() => decide.submit()}
        onCancel={() => setDeciding(null)}
      >
        <p>{deciding?.expense.description}</p>
        {deciding?.status === "ditolak" ? (
          <TextArea label={fx("reason")} name="reason" value={reason} onInput={setReason} required rows={2} />
        ) : (
          <p class="muted">{fx("approveBody")}</p>
        )}
      </Confirm>
    </section>
  );
}

function NewExpense(props: { onSaved: () => void }) {
  const today = jakartaDay(new Date());
  const empty = { category: "", amount: "", date: today, description: "" };
  const [form, setForm] = useState(empty);
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const save = useSubmit(async (key) => {
    await api.post(
      "/api/pengeluaran",
      {
        category: form.category.trim(),
        amount: rupiahInput(form.amount),
        date: form.date,
        description: form.description.trim(),
      },
      { idempotencyKey: key },
    );
    setForm(empty);
    props.onSaved();
  });
  return (
    <details class="card">
      <summary>{fx("submitExpense")}</summary>
      <form class="fin-form" onSubmit={save.submit}>
        <Field
          label={fx("category")}
          name="category"
          value={form.category}
          onInput={set("category")}
          required
          error={save.fields.category}
        />
        <Field
          label={fx("amount")}
          name="amount"
          inputMode="numeric"
          value={form.amount}
          onInput={set("amount")}
          required
          error={save.fields.amount}
        />
        <Field
          label={fx("date")}
          name="date"
          type="date"
          value={form.date}
          onInput={set("date")}
          required
          error={save.fields.date}
        />
        <div class="fin-wide">
          <TextArea
            label={fx("description")}
            name="description"
            value={form.description}
            onInput={set("description")}
            required
            rows={2}
            error={save.fields.description}
          />
        </div>
        <FormError error={save.error} />
        <div class="actions">
          <Submit busy={save.busy}>{fx("submitExpense")}</Submit>
        </div>
      </form>
    </details>
  );
}
