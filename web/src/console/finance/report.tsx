import { useState } from "preact/hooks";
import { api, saveBlob } from "../../api/client";
import { dateTime, money, period } from "../../format";
import { useLanguage } from "../../i18n";
import { FormError, Select } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { BarChart } from "../ui";
import { monthOptions, type Report, thisMonth } from "./common";
import { fx } from "./text";

/** `/pengurus/keuangan/laporan`: the month's report as the API composes it, and its PDF and workbook. */
export function ReportScreen() {
  useLanguage();
  const [month, setMonth] = useState(thisMonth());
  const report = useResource(
    () => api.get<Report>("/api/laporan/keuangan", { query: { bulan: month } }),
    [month],
  );
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const download = async (format: "pdf" | "xlsx") => {
    setBusy(format);
    setError(null);
    try {
      const blob = await api.blob("/api/laporan/keuangan", { query: { bulan: month, format } });
      saveBlob(blob, `laporan-keuangan-${month}.${format}`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section aria-labelledby="fin-report">
      <h1 id="fin-report">{fx("report")}</h1>
      <div class="filters">
        <Select
          label={fx("month")}
          name="month"
          value={month}
          onInput={setMonth}
          options={monthOptions(24)}
        />
      </div>
      <div class="actions">
        <button
          type="button"
          onClick={() => download("pdf")}
          disabled={busy !== null}
          aria-busy={busy === "pdf" ? "true" : undefined}
        >
          {fx("download", { format: "PDF" })}
        </button>
        <button
          type="button"
          onClick={() => download("xlsx")}
          disabled={busy !== null}
          aria-busy={busy === "xlsx" ? "true" : undefined}
        >
          {fx("download", { format: "Excel" })}
        </button>
      </div>
      <FormError error={error} />
      <Show resource={report} lines={6}>
        {(r) => (
          <>
            <h2>
              {r.tenantName} · {period(r.month)}
            </h2>
            <dl class="fin-totals">
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
            {r.income.byCategory.length ? (
              <BarChart
                title={`${fx("income")} · ${fx("byCategory")}`}
                bars={r.income.byCategory.map((c) => ({
                  label: c.category,
                  value: c.amount,
                  text: money(c.amount),
                }))}
              />
            ) : null}
            {r.expense.byCategory.length ? (
              <BarChart
                title={`${fx("expense")} · ${fx("byCategory")}`}
                bars={r.expense.byCategory.map((c) => ({
                  label: c.category,
                  value: c.amount,
                  text: money(c.amount),
                }))}
              />
            ) : null}
            <h2>{fx("dues")}</h2>
            <dl class="fin-totals">
              <div>
                <dt>{fx("billed")}</dt>
                <dd>{money(r.dues.billed)}</dd>
              </div>
              <div>
                <dt>{fx("collected")}</dt>
                <dd>
                  {money(r.dues.collected)} ({Math.round(r.dues.percentCollected)}%)
                </dd>
              </div>
              <div>
                <dt>{fx("receivedInMonth")}</dt>
                <dd>{money(r.dues.receivedInMonth)}</dd>
              </div>
              <div>
                <dt>{fx("reversedInMonth")}</dt>
                <dd>{money(r.dues.reversedInMonth)}</dd>
              </div>
              <div>
                <dt>{fx("arrearsUpTo")}</dt>
                <dd>{money(r.arrearsTotal)}</dd>
              </div>
            </dl>
            <p class="muted">{fx("generatedAt", { at: dateTime(r.generatedAt) })}</p>
          </>
        )}
      </Show>
    </section>
  );
}
