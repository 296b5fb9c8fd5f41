import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { date, jakartaDay, money, period } from "../../format";
import { Field, FormError, Select, Submit, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { DataTable } from "../ui";
import { type Arrears, rupiahInput, Status, unitName, useDuty } from "./common";
import { fx } from "./text";

interface Payment {
  id: string;
  amount: number;
  method: "tunai" | "transfer" | "online";
  paidAt: string;
  reversal: { reason: string } | null;
}
interface Bill {
  id: string;
  typeName: string;
  period: string;
  amount: number;
  paidAmount: number;
  outstanding: number;
  status: "belum" | "sebagian" | "lunas";
  payments: Payment[];
}

/**
 * `/pengurus/keuangan/pembayaran?unit=…`: a household's bills: record a cash (or transfer) payment on
 * an open one, and see every payment made, online ones included. The houses to choose from are those
 * in arrears (the arrears list links here too).
 */
export function PaymentsScreen() {
  const duty = useDuty();
  const { query, route } = useLocation();
  const unit = query.unit ?? "";
  const [notice, setNotice] = useState<string | null>(null);
  const houses = useResource(() => api.get<Arrears>("/api/iuran/tunggakan", { query: { limit: 100 } }));
  const bills = useResource(
    () =>
      unit
        ? api.get<{ items: Bill[] }>("/api/iuran/tagihan", { query: { unitId: unit, limit: 100 } })
        : Promise.resolve({ items: [] as Bill[] }),
    [unit],
  );
  return (
    <section aria-labelledby="fin-pay">
      <h1 id="fin-pay">{fx("payments")}</h1>
      <Show resource={houses}>
        {(a) => {
          const options = a.items.map((u) => ({
            value: u.unitId,
            label: `${unitName(u)}${u.headName ? ` · ${u.headName}` : ""} (${money(u.owed)})`,
          }));
          if (unit && !options.some((o) => o.value === unit)) {
            options.unshift({ value: unit, label: unit });
          }
          return (
            <div class="filters">
              <Select
                label={fx("pickHousehold")}
                name="unit"
                value={unit}
                onInput={(v) => {
                  setNotice(null);
                  route(
                    v
                      ? `/pengurus/keuangan/pembayaran?unit=${encodeURIComponent(v)}`
                      : "/pengurus/keuangan/pembayaran",
                    true,
                  );
                }}
                options={[{ value: "", label: fx("pickOne") }, ...options]}
              />
            </div>
          );
        }}
      </Show>
      {notice ? (
        <p class="card" role="status">
          {notice}
        </p>
      ) : null}
      {unit ? (
        <Show resource={bills}>
          {({ items }) => {
            const open = items
              .filter((b) => b.outstanding > 0)
              .sort((x, y) => x.period.localeCompare(y.period) || x.typeName.localeCompare(y.typeName));
            const paid = items.flatMap((b) => b.payments.map((p) => ({ ...p, bill: b })));
            return (
              <>
                <h2>{fx("openBills")}</h2>
                {open.length === 0 ? (
                  <p class="empty">{fx("noOpenBills")}</p>
                ) : (
                  <>
                    <DataTable
                      caption={fx("openBills")}
                      rowKey={(b) => b.id}
                      rows={open}
                      columns={[
                        { label: fx("period"), cell: (b) => `${b.typeName} · ${period(b.period)}` },
                        { label: fx("amount"), numeric: true, cell: (b) => money(b.amount) },
                        { label: fx("outstanding"), numeric: true, cell: (b) => money(b.outstanding) },
                        { label: fx("status"), cell: (b) => <Status value={b.status} /> },
                      ]}
                    />
                    {duty.finance ? (
                      <RecordPayment
                        key={open.map((b) => `${b.id}:${b.outstanding}`).join()}
                        bills={open}
                        onPaid={(text) => {
                          setNotice(text);
                          if (bills.state === "ready") {
                            bills.reload();
                          }
                        }}
                      />
                    ) : null}
                  </>
                )}
                <h2>{fx("history")}</h2>
                {paid.length === 0 ? (
                  <p class="empty">{fx("noPayments")}</p>
                ) : (
                  <DataTable
                    caption={fx("history")}
                    rowKey={(p) => p.id}
                    rows={paid.sort((x, y) => y.paidAt.localeCompare(x.paidAt))}
                    columns={[
                      { label: fx("paidOn"), cell: (p) => date(p.paidAt) },
                      { label: fx("period"), cell: (p) => `${p.bill.typeName} · ${period(p.bill.period)}` },
                      {
                        label: fx("method"),
                        cell: (p) => (
                          <div class="fin-cell">
                            {fx(p.method)}
                            {p.reversal ? <span class="badge fin-dibatalkan"> {fx("reversed")}</span> : null}
                          </div>
                        ),
                      },
                      { label: fx("amount"), numeric: true, cell: (p) => money(p.amount) },
                    ]}
                  />
                )}
              </>
            );
          }}
        </Show>
      ) : null}
    </section>
  );
}

/** The treasurer records a payment on one of the household's open bills (cash by default). */
function RecordPayment(props: { bills: Bill[]; onPaid: (notice: string) => void }) {
  const today = jakartaDay(new Date());
  const first = props.bills[0];
  const [billId, setBillId] = useState(first?.id ?? "");
  const [amount, setAmount] = useState(String(first?.outstanding ?? ""));
  const [method, setMethod] = useState("tunai");
  const [day, setDay] = useState(today);
  const pay = useSubmit(async (key) => {
    const paidAt = day >= today ? new Date().toISOString() : `${day}T12:00:00+07:00`;
    const value = rupiahInput(amount);
    await api.post(
      `/api/iuran/tagihan/${billId}/pembayaran`,
      { amount: value, method, paidAt },
      { idempotencyKey: key },
    );
    props.onPaid(fx("recorded", { amount: money(value) }));
  });
  return (
    <form class="fin-form card" onSubmit={pay.submit} aria-label={fx("record")}>
      <div class="fin-wide">
        <Select
          label={fx("bill")}
          name="bill"
          value={billId}
          onInput={(id) => {
            setBillId(id);
            setAmount(String(props.bills.find((b) => b.id === id)?.outstanding ?? ""));
          }}
          options={props.bills.map((b) => ({
            value: b.id,
            label: `${b.typeName} · ${period(b.period)} (${money(b.outstanding)})`,
          }))}
        />
      </div>
      <Field
        label={fx("amount")}
        name="amount"
        inputMode="numeric"
        value={amount}
        onInput={setAmount}
        required
        error={pay.fields.amount}
      />
      <Select
        label={fx("method")}
        name="method"
        value={method}
        onInput={setMethod}
        options={[
          { value: "tunai", label: fx("tunai") },
          { value: "transfer", label: fx("transfer") },
        ]}
      />
      <Field
        label={fx("paidOn")}
        name="paidAt"
        type="date"
        value={day}
        onInput={setDay}
        required
        error={pay.fields.paidAt}
      />
      <FormError error={pay.error} />
      <div class="actions">
        <Submit busy={pay.busy}>{fx("record")}</Submit>
      </div>
    </form>
  );
}
