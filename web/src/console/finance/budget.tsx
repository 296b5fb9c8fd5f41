import { useEffect, useState } from "preact/hooks";
import { api } from "../../api/client";
import { money } from "../../format";
import { Field, FormError, Select, Submit, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { cx } from "../text";
import { ConflictNotice, currentEtag, DataTable, isConflict } from "../ui";
import { rupiahInput, thisMonth, useDuty } from "./common";
import { fx } from "./text";

interface Budget {
  year: number;
  lines: { category: string; amount: number; realised: number; percentUsed: number }[];
  totals: { amount: number; realised: number; percentUsed: number };
}

/**
 * `/pengurus/keuangan/anggaran`: a year's budget against what was spent; the head (admin) sets it, with
 * the budget's ETag so two saves never overwrite each other silently.
 */
export function BudgetScreen() {
  const duty = useDuty();
  const current = Number(thisMonth().slice(0, 4));
  const [year, setYear] = useState(String(current));
  const budget = useResource(() => api.read<Budget>("/api/anggaran", { query: { tahun: year } }), [year]);
  return (
    <section aria-labelledby="fin-budget">
      <h1 id="fin-budget">{fx("budgetOf", { year })}</h1>
      <div class="filters">
        <Select
          label={fx("year")}
          name="year"
          value={year}
          onInput={setYear}
          options={[current + 1, current, current - 1, current - 2].map((y) => ({
            value: String(y),
            label: String(y),
          }))}
        />
      </div>
      <Show resource={budget}>
        {({ data, etag }) => (
          <>
            {data.lines.length === 0 ? (
              <p class="empty">{fx("noBudget")}</p>
            ) : (
              <>
                <DataTable
                  caption={fx("budgetOf", { year })}
                  rowKey={(l) => l.category}
                  rows={data.lines}
                  columns={[
                    { label: fx("category"), cell: (l) => l.category },
                    { label: fx("budget"), numeric: true, cell: (l) => money(l.amount) },
                    { label: fx("realised"), numeric: true, cell: (l) => money(l.realised) },
                    {
                      label: fx("used"),
                      numeric: true,
                      cell: (l) => `${Math.round(l.percentUsed)}%`,
                    },
                  ]}
                />
                <p class="total">
                  {fx("total")}: {money(data.totals.realised)} / {money(data.totals.amount)} (
                  {Math.round(data.totals.percentUsed)}%)
                </p>
              </>
            )}
            {duty.admin ? (
              <BudgetForm
                year={data.year}
                budget={data}
                etag={etag}
                reload={() => budget.state === "ready" && budget.reload()}
              />
            ) : null}
          </>
        )}
      </Show>
    </section>
  );
}

interface Line {
  category: string;
  amount: string;
}

function BudgetForm(props: { year: number; budget: Budget; etag: string | null; reload: () => void }) {
  const fromBudget = (b: Budget): Line[] =>
    b.lines.length
      ? b.lines.map((l) => ({ category: l.category, amount: String(l.amount) }))
      : [{ category: "", amount: "" }];
  const [lines, setLines] = useState<Line[]>(fromBudget(props.budget));
  const [saved, setSaved] = useState(false);
  const [reloaded, setReloaded] = useState(false);
  useEffect(() => setLines(fromBudget(props.budget)), [props.budget]);
  const path = `/api/anggaran/${props.year}`;
  const body = () => ({
    lines: lines
      .filter((l) => l.category.trim())
      .map((l) => ({ category: l.category.trim(), amount: rupiahInput(l.amount) })),
  });
  const save = useSubmit(async (key) => {
    setSaved(false);
    setReloaded(false);
    await api.put(path, body(), props.etag, { idempotencyKey: key });
    setSaved(true);
    props.reload();
  });
  const mine = useSubmit(async (key) => {
    const etag = await currentEtag(`/api/anggaran?tahun=${props.year}`);
    await api.put(path, body(), etag, { idempotencyKey: key });
    setSaved(true);
    props.reload();
  });
  const setLine = (i: number, key: keyof Line) => (value: string) =>
    setLines((all) => all.map((l, j) => (j === i ? { ...l, [key]: value } : l)));
  return (
    <details class="card" open={props.budget.lines.length === 0}>
      <summary>{fx("editBudget")}</summary>
      <form onSubmit={save.submit}>
        {lines.map((l, i) => (
          <div class="fin-line" key={i}>
            <Field
              label={fx("lineCategory", { n: i + 1 })}
              name={`category-${i}`}
              value={l.category}
              onInput={setLine(i, "category")}
            />
            <Field
              label={fx("lineAmount", { n: i + 1 })}
              name={`amount-${i}`}
              inputMode="numeric"
              value={l.amount}
              onInput={setLine(i, "amount")}
            />
            <button type="button" onClick={() => setLines((all) => all.filter((_, j) => j !== i))}>
              {fx("removeLine", { n: i + 1 })}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setLines((all) => [...all, { category: "", amount: "" }])}>
          {fx("addLine")}
        </button>
        {isConflict(save.error) && !saved && !reloaded ? (
          <ConflictNotice
            busy={mine.busy}
            onTheirs={() => {
              setReloaded(true);
              props.reload();
            }}
            onMine={() => mine.submit()}
          />
        ) : (
          <FormError error={isConflict(save.error) ? mine.error : save.error} />
        )}
        {saved ? <p role="status">{cx("saved")}</p> : null}
        <div class="actions">
          <Submit busy={save.busy}>{cx("save")}</Submit>
        </div>
      </form>
    </details>
  );
}
