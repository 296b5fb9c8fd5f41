import { Route, Router, useLocation } from "preact-iso";
import { useLanguage } from "../../i18n";
import { ArrearsScreen } from "./arrears";
import { BudgetScreen } from "./budget";
import { CampaignDetail, Campaigns } from "./campaigns";
import { CashBookScreen } from "./cash";
import { useDuty } from "./common";
import { DuesTypeForm, DuesTypes } from "./dues";
import { Expenses } from "./expenses";
import "./finance.css";
import { GenerateScreen } from "./generate";
import { Overview } from "./overview";
import { PaymentsScreen } from "./payments";
import { ReportScreen } from "./report";
import { fx } from "./text";

const BASE = "/pengurus/keuangan";
const TABS = [
  ["", "overview"],
  ["/jenis", "types"],
  ["/tagihan", "bills"],
  ["/pembayaran", "payments"],
  ["/tunggakan", "arrears"],
  ["/kas", "cash"],
  ["/anggaran", "budget"],
  ["/pengeluaran", "expenses"],
  ["/kampanye", "campaigns"],
  ["/laporan", "report"],
] as const;

/**
 * `/pengurus/keuangan/*`: the treasurer's desk (issue 46 item 3). Staff read everything the API lets
 * them; the writes (bendahara, admin) and the budget (admin) are offered only to those duties.
 */
export function Finance() {
  useLanguage();
  const duty = useDuty();
  const { path } = useLocation();
  return (
    <div class="fin">
      <nav class="fin-tabs" aria-label={fx("sub")}>
        <ul>
          {TABS.filter(([p]) => duty.finance || p !== "/tagihan").map(([p, key]) => {
            const href = `${BASE}${p}`;
            const here =
              p === "" ? path === BASE || path === `${BASE}/` : path === href || path.startsWith(`${href}/`);
            return (
              <li key={key}>
                <a href={href} aria-current={here ? "page" : undefined}>
                  {fx(key)}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <Router>
        <Route path="/" component={Overview} />
        <Route path="/jenis" component={DuesTypes} />
        <Route path="/jenis/:id" component={DuesTypeForm} />
        <Route path="/tagihan" component={GenerateScreen} />
        <Route path="/pembayaran" component={PaymentsScreen} />
        <Route path="/tunggakan" component={ArrearsScreen} />
        <Route path="/kas" component={CashBookScreen} />
        <Route path="/anggaran" component={BudgetScreen} />
        <Route path="/pengeluaran" component={Expenses} />
        <Route path="/kampanye" component={Campaigns} />
        <Route path="/kampanye/:id" component={CampaignDetail} />
        <Route path="/laporan" component={ReportScreen} />
      </Router>
    </div>
  );
}
