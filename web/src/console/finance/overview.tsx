import { api } from "../../api/client";
import { money, period } from "../../format";
import { Show, useResource } from "../../ui/states";
import { type Arrears, type Report, thisMonth, useDuty } from "./common";
import { fx } from "./text";

/** `/pengurus/keuangan`: this month's collection, the arrears and the cash balance, each a way in. */
export function Overview() {
  const duty = useDuty();
  const month = thisMonth();
  const figures = useResource(async () => {
    const [report, arrears] = await Promise.all([
      api.get<Report>("/api/laporan/keuangan", { query: { bulan: month } }),
      api.get<Arrears>("/api/iuran/tunggakan", { query: { limit: 1 } }),
    ]);
    return { report, arrears };
  });
  return (
    <section aria-labelledby="fin-title">
      <h1 id="fin-title">{fx("title")}</h1>
      {duty.finance ? null : <p class="muted">{fx("readOnly")}</p>}
      <Show resource={figures} lines={3}>
        {({ report, arrears }) => (
          <ul class="kpis fin-kpis" aria-label={fx("overview")}>
            <li>
              <a href="/pengurus/keuangan/pembayaran">
                <span>{fx("collected")}</span>
                <strong data-kpi="collected">{money(report.dues.collected)}</strong>
                <span>
                  {fx("collectedOf", {
                    billed: money(report.dues.billed),
                    percent: Math.round(report.dues.percentCollected),
                  })}
                </span>
              </a>
            </li>
            <li>
              <a href="/pengurus/keuangan/tunggakan">
                <span>{fx("arrearsTotal")}</span>
                <strong data-kpi="arrears">{money(arrears.totals.owed)}</strong>
                <span>
                  {fx("arrearsUnits")}: <b data-kpi="arrears-units">{arrears.totals.units}</b>
                </span>
              </a>
            </li>
            <li>
              <a href="/pengurus/keuangan/kas">
                <span>{fx("balance")}</span>
                <strong data-kpi="balance">{money(report.closingBalance)}</strong>
                <span>{fx("balanceAt", { month: period(month) })}</span>
              </a>
            </li>
          </ul>
        )}
      </Show>
    </section>
  );
}
