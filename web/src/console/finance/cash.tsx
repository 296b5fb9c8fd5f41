import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date, jakartaDay, money, period } from "../../format";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { Confirm, DataTable } from "../ui";
import { monthOptions, monthRange, type Report, rupiahInput, thisMonth, useDuty } from "./common";
import { fx } from "./text";

interface Entry {
  id: string;
  kind: "masuk" | "keluar";
  category: string;
  amount: number;
  date: string;
  note: string;
  source: "manual" | "iuran" | "donasi" | "pengeluaran" | "koreksi";
  reversesId: string | null;
  balance: number;
}
interface CashBook extends Page<Entry> {
  openingBalance: number;
  closingBalance: number;
}

/**
 * `/pengurus/keuangan/kas`: a month of the cash book with its running balance and the month's totals;
 * the treasurer records an entry, and corrects one with a reversing entry (never an edit).
 */
export function CashBookScreen() {
  const duty = useDuty();
  const [month, setMonth] = useState(thisMonth());
  const [tick, setTick] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const range = monthRange(month);
  const totals = useResource(
    () => api.get<Report>("/api/laporan/keuangan", { query: { bulan: month } }),
    [month, tick],
  );
  const book = usePaged(
    (cursor) => api.get<CashBook>("/api/kas", { query: { ...range, limit: 50, cursor } }),
    [month, tick],
  );
  const [correcting, setCorrecting] = useState<Entry | null>(null);
  const [reason, setReason] = useState("");
  const correct = useSubmit(async (key) => {
    if (!correcting) {
      return;
    }
    await api.post(`/api/kas/${correcting.id}/koreksi`, { reason: reason.trim() }, { idempotencyKey: key });
    setCorrecting(null);
    setReason("");
    setNotice(fx("corrected"));
    setTick((n) => n + 1);
  });
  const reversed = new Set(book.state === "ready" ? book.items.map((e) => e.reversesId).filter(Boolean) : []);
  return (
    <section aria-labelledby="fin-cash">
      <h1 id="fin-cash">{fx("cash")}</h1>
      <div class="filters">
        <Select
          label={fx("month")}
          name="month"
          value={month}
          onInput={setMonth}
          options={monthOptions(24)}
        />
      </div>
      <Show resource={totals}>
        {(r) => (
          <dl class="fin-totals" aria-label={fx("monthTotals")}>
            <div>
              <dt>{fx("opening")}</dt>
              <dd>{money(r.openingBalance)}</dd>
            </div>
            <div>
              <dt>{fx("income")}</dt>
              <dd>{money(r.income.total)}</dd>
            </div>
            <div>
              <dt>{fx("expense")}</dt>
              <dd>{money(r.expense.total)}</dd>
            </div>
            <div>
              <dt>{fx("closing")}</dt>
              <dd>{money(r.closingBalance)}</dd>
            </div>
          </dl>
        )}
      </Show>
      {notice ? (
        <p class="card" role="status">
          {notice}
        </p>
      ) : null}
      {duty.finance ? (
        <NewEntry
          onSaved={() => {
            setNotice(fx("entrySaved"));
            setTick((n) => n + 1);
          }}
        />
      ) : null}
      <h2>{period(month)}</h2>
      <ShowPaged paged={book} empty={fx("noEntries")}>
        {(items) => (
          <DataTable
            caption={fx("cash")}
            rowKey={(e) => e.id}
            rows={items}
            columns={[
              { label: fx("date"), cell: (e) => date(e.date) },
              {
                label: fx("note"),
                cell: (e) => (
                  <div class="fin-cell">
                    {e.note}
                    <div class="muted">
                      {e.category} · {fx(e.source)}
                    </div>
                  </div>
                ),
              },
              {
                label: fx("amount"),
                numeric: true,
                cell: (e) => `${e.kind === "masuk" ? "+" : "−"}${money(e.amount)}`,
              },
              { label: fx("runningBalance"), numeric: true, cell: (e) => money(e.balance) },
              ...(duty.finance
                ? [
                    {
                      label: fx("actions"),
                      cell: (e: Entry) =>
                        e.source === "manual" && !reversed.has(e.id) ? (
                          <button type="button" onClick={() => setCorrecting(e)}>
                            {fx("correct")}
                          </button>
                        ) : null,
                    },
                  ]
                : []),
            ]}
          />
        )}
      </ShowPaged>
      <Confirm
        open={correcting !== null}
        title={fx("correctTitle")}
        confirmLabel={fx("correct")}
        danger
        busy={correct.busy}
        error={correct.error}
        onConfirm={() => correct.submit()}
        onCancel={() => setCorrecting(null)}
      >
        <p>
          {correcting ? `${date(correcting.date)} · ${correcting.note} · ${money(correcting.amount)}` : ""}
        </p>
        <p class="muted">{fx("correctBody")}</p>
        <TextArea
          label={fx("reason")}
          name="reason"
          value={reason}
          onInput={setReason}
          required
          minLength={3}
          rows={2}
        />
      </Confirm>
    </section>
  );
}

function NewEntry(props: { onSaved: () => void }) {
  const today = jakartaDay(new Date());
  const empty = { kind: "masuk", category: "", amount: "", date: today, note: "" };
  const [form, setForm] = useState(empty);
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const save = useSubmit(async (key) => {
    await api.post(
      "/api/kas",
      {
        kind: form.kind,
        category: form.category.trim(),
        amount: rupiahInput(form.amount),
        date: form.date,
        note: form.note.trim(),
      },
      { idempotencyKey: key },
    );
    setForm(empty);
    props.onSaved();
  });
  return (
    <details class="card">
      <summary>{fx("newEntry")}</summary>
      <form class="fin-form" onSubmit={save.submit}>
        <Select
          label={fx("kind")}
          name="kind"
          value={form.kind}
          onInput={set("kind")}
          options={[
            { value: "masuk", label: fx("masuk") },
            { value: "keluar", label: fx("keluar") },
          ]}
        />
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
            label={fx("note")}
            name="note"
            value={form.note}
            onInput={set("note")}
            required
            rows={2}
            error={save.fields.note}
          />
        </div>
        <FormError error={save.error} />
        <div class="actions">
          <Submit busy={save.busy}>{fx("create")}</Submit>
        </div>
      </form>
    </details>
  );
}
