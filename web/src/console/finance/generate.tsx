import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { money, period } from "../../format";
import { FormError, Select, Submit, useSubmit } from "../../ui/forms";
import { DataTable, Progress } from "../ui";
import { monthOptions, shiftMonth, thisMonth, useDuty } from "./common";
import { fx } from "./text";

interface Preview {
  period: string;
  bills: number;
  existing: number;
  total: number;
  types: { typeId: string; name: string; amount: number; bills: number; existing: number; total: number }[];
}

/**
 * `/pengurus/keuangan/tagihan`: a month's bills, previewed first (how many, for how much; nothing
 * written), then issued, with progress while the API writes them.
 */
export function GenerateScreen() {
  const duty = useDuty();
  const [month, setMonth] = useState(shiftMonth(thisMonth(), 1));
  const [preview, setPreview] = useState<Preview | null>(null);
  const [result, setResult] = useState<{ created: number; existing: number; period: string } | null>(null);
  const look = useSubmit(async () => {
    setResult(null);
    setPreview(await api.get<Preview>("/api/iuran/tagihan/pratinjau", { query: { period: month } }));
  });
  const run = useSubmit(async (key) => {
    const answer = await api.post<{ created: number; existing: number; period: string }>(
      "/api/iuran/tagihan/generate",
      { period: month },
      { idempotencyKey: key },
    );
    setResult(answer);
    setPreview(null);
  });
  return (
    <section aria-labelledby="fin-gen">
      <h1 id="fin-gen">{fx("bills")}</h1>
      {duty.finance ? null : <p class="muted">{fx("readOnly")}</p>}
      {duty.finance ? (
        <form class="filters" onSubmit={look.submit}>
          <Select
            label={fx("month")}
            name="period"
            value={month}
            onInput={(v) => {
              setMonth(v);
              setPreview(null);
            }}
            options={monthOptions(12, 3)}
          />
          <Submit busy={look.busy}>{fx("preview")}</Submit>
        </form>
      ) : null}
      <FormError error={look.error} />
      {preview ? (
        <div class="card">
          <h2>{fx("previewTitle", { month: period(preview.period) })}</h2>
          <dl class="fin-totals">
            <div>
              <dt>{fx("willCreate")}</dt>
              <dd data-preview="bills">{preview.bills}</dd>
            </div>
            <div>
              <dt>{fx("total")}</dt>
              <dd>{money(preview.total)}</dd>
            </div>
            <div>
              <dt>{fx("already")}</dt>
              <dd>{preview.existing}</dd>
            </div>
          </dl>
          {preview.types.length > 0 ? (
            <DataTable
              caption={fx("types")}
              rowKey={(t) => t.typeId}
              rows={preview.types}
              columns={[
                { label: fx("name"), cell: (t) => t.name },
                { label: fx("amount"), numeric: true, cell: (t) => money(t.amount) },
                { label: fx("willCreate"), numeric: true, cell: (t) => t.bills },
                { label: fx("already"), numeric: true, cell: (t) => t.existing },
                { label: fx("total"), numeric: true, cell: (t) => money(t.total) },
              ]}
            />
          ) : null}
          {preview.bills === 0 ? (
            <p class="empty">{fx("nothingToCreate")}</p>
          ) : (
            <form onSubmit={run.submit}>
              {run.busy ? <Progress label={fx("generating")} /> : null}
              <FormError error={run.error} />
              <div class="actions">
                <Submit busy={run.busy}>{fx("generate", { count: preview.bills })}</Submit>
              </div>
            </form>
          )}
        </div>
      ) : null}
      {result ? (
        <p class="card" role="status">
          {fx("generated", {
            created: result.created,
            existing: result.existing,
            month: period(result.period),
          })}
        </p>
      ) : null}
    </section>
  );
}
