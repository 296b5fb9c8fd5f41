import { api } from "../../api/client";
import { date } from "../../format";
import { useLanguage } from "../../i18n";
import type { Page } from "../../ui/states";
import { ShowPaged, usePaged } from "../../ui/states";
import { DataTable } from "../ui";
import { humanize, tx } from "./text";
import { BASE, HOME } from "./types";

interface ReportedVehicle {
  id: string;
  familyCardId: string;
  plate: string;
  typed: string;
  kind: string;
  headName: string | null;
  createdAt: string;
}
interface PlateDuplicate extends ReportedVehicle {
  samePlate: ReportedVehicle[];
}

/**
 * `/pengurus/warga/plat-ganda`: vehicles registered under another spelling of a plate another vehicle
 * already had (issue 49, ADR 0047), each with the vehicles it shares the plate with; the secretary
 * corrects or deletes one on its card, which takes it off this list.
 */
export function PlateDuplicates() {
  useLanguage();
  const paged = usePaged<PlateDuplicate>(
    (cursor) =>
      api.get<Page<PlateDuplicate>>(`${BASE}/vehicles/duplicates`, { query: { limit: 25, cursor } }),
    [],
  );
  const cardLink = (v: ReportedVehicle) => (
    <a href={`${HOME}/kk/${v.familyCardId}`}>
      {v.headName ?? tx("none")}
      <span class="sr-only"> ({tx("openCard")})</span>
    </a>
  );
  return (
    <section aria-labelledby="dup-title">
      <h1 id="dup-title">{tx("duplicatesTitle")}</h1>
      <p class="muted">{tx("duplicatesIntro")}</p>
      <ShowPaged paged={paged} empty={tx("noDuplicates")}>
        {(items) => (
          <DataTable
            caption={tx("duplicatesCaption")}
            rows={items}
            rowKey={(d) => d.id}
            columns={[
              {
                label: tx("plate"),
                cell: (d) => (
                  <span>
                    <span class="reg-mono">{d.plate}</span>
                    <span class="muted reg-block">
                      {tx("typedAs")}: {d.typed}
                    </span>
                  </span>
                ),
              },
              { label: tx("kind"), cell: (d) => humanize(d.kind) },
              { label: tx("head"), cell: cardLink },
              {
                label: tx("sameAs"),
                cell: (d) => (
                  <ul class="reg-plain">
                    {d.samePlate.map((s) => (
                      <li key={s.id}>
                        {cardLink(s)} · {s.typed} · {date(s.createdAt)}
                      </li>
                    ))}
                  </ul>
                ),
              },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}
