import { api } from "../../api/client";
import { useLanguage } from "../../i18n";
import { Show, useResource } from "../../ui/states";
import { BarChart } from "../ui";
import { humanize, tx } from "./text";
import { BASE } from "./types";

type Tally = { key: string; count: number }[];
interface Statistik {
  totalFamilies: number;
  totalPersons: number;
  totalVehicles: number;
  perBlock: { block: string; families: number; persons: number; vehicles: number }[];
  sex: Tally;
  ageGroups: Tally;
  religion: Tally;
  residenceStatus: Tally;
  livingStatus: Tally;
}

const label = (key: string) =>
  key === "L"
    ? tx("sexL")
    : key === "P"
      ? tx("sexP")
      : /^unknown|tidak_diketahui$/i.test(key)
        ? tx("unknown")
        : humanize(key);
const bars = (t: Tally) => t.map((x) => ({ label: label(x.key), value: x.count }));

/** `/pengurus/warga/statistik`: the registry's counts as bar charts that read as lists too. */
export function Stats() {
  useLanguage();
  const stats = useResource(() => api.get<Statistik>(`${BASE}/statistik`));
  return (
    <section aria-labelledby="stats-title">
      <h1 id="stats-title">{tx("statsTitle")}</h1>
      <Show resource={stats} lines={6}>
        {(s) => (
          <>
            <ul class="kpis reg-kpis">
              <li>
                <span>{tx("totalFamilies")}</span>
                <strong>{s.totalFamilies}</strong>
              </li>
              <li>
                <span>{tx("totalPersons")}</span>
                <strong>{s.totalPersons}</strong>
              </li>
              <li>
                <span>{tx("totalVehicles")}</span>
                <strong>{s.totalVehicles}</strong>
              </li>
            </ul>
            <div class="reg-charts">
              <BarChart
                title={tx("perBlock")}
                bars={s.perBlock.map((b) => ({ label: b.block, value: b.persons }))}
              />
              <BarChart title={tx("bySex")} bars={bars(s.sex)} />
              <BarChart title={tx("byAge")} bars={bars(s.ageGroups)} />
              <BarChart title={tx("byReligion")} bars={bars(s.religion)} />
              <BarChart title={tx("byResidence")} bars={bars(s.residenceStatus)} />
              <BarChart title={tx("byLiving")} bars={bars(s.livingStatus)} />
            </div>
          </>
        )}
      </Show>
    </section>
  );
}
