import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date } from "../../format";
import { useLanguage } from "../../i18n";
import { Select } from "../../ui/forms";
import type { Page } from "../../ui/states";
import { ShowPaged, usePaged } from "../../ui/states";
import { cx } from "../text";
import { DataTable } from "../ui";
import { tx } from "./text";
import { BASE, HOME, MUTATION_KINDS } from "./types";

interface Mutasi {
  id: string;
  kind: (typeof MUTATION_KINDS)[number];
  date: string;
  familyCardId: string;
  personName: string;
  place: string | null;
  note: string | null;
}

/** `/pengurus/warga/mutasi`: births, deaths, moves in and out as recorded, newest first, paged. */
export function MutasiList() {
  useLanguage();
  const [kind, setKind] = useState("");
  const paged = usePaged<Mutasi>(
    (cursor) =>
      api.get<Page<Mutasi>>(`${BASE}/mutasi`, { query: { limit: 25, cursor, kind: kind || undefined } }),
    [kind],
  );
  return (
    <section aria-labelledby="mutasi-title">
      <h1 id="mutasi-title">{tx("mutasiListTitle")}</h1>
      <div class="filters">
        <Select
          label={tx("kindFilter")}
          name="kind"
          value={kind}
          onInput={setKind}
          options={[
            { value: "", label: cx("all") },
            ...MUTATION_KINDS.map((k) => ({ value: k, label: tx(`mk_${k}`) })),
          ]}
        />
      </div>
      <ShowPaged paged={paged} empty={tx("noMutasi")}>
        {(items) => (
          <DataTable
            caption={tx("mutasiCaption")}
            rows={items}
            rowKey={(m) => m.id}
            columns={[
              { label: tx("date"), cell: (m) => date(m.date) },
              { label: tx("kind"), cell: (m) => tx(`mk_${m.kind}`) },
              {
                label: tx("person"),
                cell: (m) => <a href={`${HOME}/kk/${m.familyCardId}`}>{m.personName}</a>,
              },
              { label: tx("place"), cell: (m) => m.place ?? tx("none") },
              { label: tx("note"), cell: (m) => m.note ?? tx("none") },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}
