import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { useLanguage } from "../../i18n";
import { Field, Select } from "../../ui/forms";
import type { Page } from "../../ui/states";
import { ShowPaged, usePaged } from "../../ui/states";
import { cx } from "../text";
import { DataTable } from "../ui";
import { humanize, tx } from "./text";
import { BASE, type CardSummary, HOME, KK_STATUSES } from "./types";

export const houseOf = (c: { unit: { block: string; number: string } | null }) =>
  c.unit ? tx("houseText", { block: c.unit.block, number: c.unit.number }) : tx("none");

export const statusText = (s: string) =>
  KK_STATUSES.includes(s as "aktif") ? tx(`st_${s}` as "st_aktif") : humanize(s);

/** The family cards, searched and filtered, 25 at a time. */
export function CardList() {
  useLanguage();
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  const [status, setStatus] = useState("aktif");
  const paged = usePaged<CardSummary>(
    (cursor) =>
      api.get<Page<CardSummary>>(`${BASE}/kk`, {
        query: { limit: 25, cursor, q: q || undefined, status: status || undefined },
      }),
    [q, status],
  );
  return (
    <section aria-labelledby="reg-title">
      <h1 id="reg-title">{tx("navCards")}</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(typed.trim());
        }}
      >
        <Field label={tx("search")} name="q" value={typed} onInput={setTyped} />
        <Select
          label={tx("status")}
          name="status"
          value={status}
          onInput={setStatus}
          options={[
            { value: "", label: cx("all") },
            ...KK_STATUSES.map((s) => ({ value: s, label: statusText(s) })),
          ]}
        />
        <button type="submit">{cx("search")}</button>
      </form>
      <p>
        <a class="button" href={`${HOME}/baru`}>
          {tx("newCard")}
        </a>
      </p>
      <ShowPaged paged={paged} empty={tx("noCards")} lines={6}>
        {(items) => (
          <DataTable
            caption={tx("cardsCaption")}
            rows={items}
            rowKey={(c) => c.id}
            columns={[
              {
                label: tx("head"),
                cell: (c) => <a href={`${HOME}/kk/${c.id}`}>{c.headName}</a>,
              },
              { label: tx("kk"), cell: (c) => <span class="reg-mono">{c.kkNumber}</span> },
              { label: tx("house"), cell: houseOf },
              { label: tx("members"), cell: (c) => c.memberCount, numeric: true },
              { label: tx("status"), cell: (c) => statusText(c.status) },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}
