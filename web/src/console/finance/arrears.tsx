import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date, dateTime, money, period } from "../../format";
import { useSubmit } from "../../ui/forms";
import { Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { BarChart, Confirm, DataTable } from "../ui";
import { type Arrears, type ArrearsUnit, unitName, useDuty } from "./common";
import { fx } from "./text";

interface MovedOut {
  familyId: string;
  headName: string | null;
  leftOn: string | null;
  unitId: string;
  block: string | null;
  number: string | null;
  owed: number;
  unpaidBills: number;
  oldestPeriod: string;
}
interface ReminderResult {
  queued: number;
  sentNow: number;
  heldUntil: string | null;
  skipped: { noArrears: number; recentlyReminded: number; noRecipient: number };
}

/**
 * `/pengurus/keuangan/tunggakan`: the arrears with their aging, each house with its WhatsApp link (for
 * the treasurer) and the way to record its payment; reminders through the API; and apart, the debts
 * of families that moved out.
 */
export function ArrearsScreen() {
  const duty = useDuty();
  const summary = useResource(() => api.get<Arrears>("/api/iuran/tunggakan", { query: { limit: 1 } }));
  const list = usePaged(
    (cursor) => api.get<Arrears>("/api/iuran/tunggakan", { query: { limit: 20, cursor } }),
    [],
  );
  const moved = usePaged(
    (cursor) =>
      api.get<{ items: MovedOut[]; nextCursor: string | null }>("/api/iuran/tunggakan/pindah", {
        query: { limit: 20, cursor },
      }),
    [],
  );
  const [remind, setRemind] = useState<{ unitIds?: string[]; label: string } | null>(null);
  const [result, setResult] = useState<ReminderResult | null>(null);
  // The same Idempotency-Key until it succeeds: pressing again after a failure is the same request.
  const reminder = useSubmit(async (key) => {
    const body = remind?.unitIds ? { unitIds: remind.unitIds } : {};
    setResult(await api.post<ReminderResult>("/api/iuran/pengingat", body, { idempotencyKey: key }));
    setRemind(null);
  });
  const columns = [
    {
      label: fx("household"),
      cell: (u: ArrearsUnit) => (
        <div class="fin-cell">
          {unitName(u)}
          {u.headName ? <div class="muted">{u.headName}</div> : null}
        </div>
      ),
    },
    { label: fx("owed"), numeric: true, cell: (u: ArrearsUnit) => money(u.owed) },
    { label: fx("oldest"), cell: (u: ArrearsUnit) => period(u.oldestPeriod) },
    {
      label: fx("actions"),
      cell: (u: ArrearsUnit) => (
        <div class="fin-row-actions">
          {u.waLink ? (
            <a href={u.waLink} target="_blank" rel="noopener noreferrer">
              {fx("waTo", { name: u.headName ?? unitName(u) })}
            </a>
          ) : null}
          <a href={`/pengurus/keuangan/pembayaran?unit=${encodeURIComponent(u.unitId)}`}>{fx("record")}</a>
          {duty.finance ? (
            <button type="button" onClick={() => setRemind({ unitIds: [u.unitId], label: unitName(u) })}>
              {fx("remind")}
            </button>
          ) : null}
        </div>
      ),
    },
  ];
  return (
    <section aria-labelledby="fin-arrears">
      <h1 id="fin-arrears">{fx("arrears")}</h1>
      <Show resource={summary} lines={3}>
        {(a) => (
          <>
            <dl class="fin-totals">
              <div>
                <dt>{fx("arrearsTotal")}</dt>
                <dd>{money(a.totals.owed)}</dd>
              </div>
              <div>
                <dt>{fx("arrearsUnits")}</dt>
                <dd>{a.totals.units}</dd>
              </div>
            </dl>
            <p class="muted">
              {fx("thisMonth", {
                month: period(a.bulanIni.period),
                amount: money(a.bulanIni.outstanding),
                units: a.bulanIni.units,
                due: date(a.bulanIni.dueDate),
              })}
            </p>
            <BarChart
              title={fx("aging")}
              bars={(["d0_30", "d31_60", "d61_90", "d90plus"] as const).map((k) => ({
                label: fx(k),
                value: a.totals.aging[k],
                text: money(a.totals.aging[k]),
              }))}
            />
          </>
        )}
      </Show>
      {duty.finance ? (
        <div class="actions">
          <button type="button" class="primary" onClick={() => setRemind({ label: fx("remindAll") })}>
            {fx("remindAll")}
          </button>
        </div>
      ) : null}
      {result ? (
        <p class="card" role="status">
          {fx("reminded", {
            queued: result.queued,
            sentNow: result.sentNow,
            recent: result.skipped.recentlyReminded,
            none: result.skipped.noRecipient,
          })}
          {result.heldUntil ? ` ${fx("heldUntil", { at: dateTime(result.heldUntil) })}` : ""}
        </p>
      ) : null}
      <h2>{fx("arrearsUnits")}</h2>
      <ShowPaged paged={list} empty={fx("noArrears")}>
        {(items) => (
          <DataTable caption={fx("arrears")} rowKey={(u) => u.unitId} rows={items} columns={columns} />
        )}
      </ShowPaged>
      <h2>{fx("movedOut")}</h2>
      <ShowPaged paged={moved} empty={fx("noMovedOut")}>
        {(items) => (
          <DataTable
            caption={fx("movedOut")}
            rowKey={(m) => m.familyId}
            rows={items}
            columns={[
              {
                label: fx("head"),
                cell: (m) => (
                  <div class="fin-cell">
                    {m.headName ?? m.familyId}
                    <div class="muted">{unitName(m)}</div>
                  </div>
                ),
              },
              { label: fx("leftOn"), cell: (m) => (m.leftOn ? date(m.leftOn) : "-") },
              { label: fx("owed"), numeric: true, cell: (m) => money(m.owed) },
              { label: fx("oldest"), cell: (m) => period(m.oldestPeriod) },
            ]}
          />
        )}
      </ShowPaged>
      <Confirm
        open={remind !== null}
        title={fx("remindConfirm")}
        confirmLabel={fx("remind")}
        busy={reminder.busy}
        error={reminder.error}
        onConfirm={() => reminder.submit()}
        onCancel={() => setRemind(null)}
      >
        <p>{remind?.label}</p>
      </Confirm>
    </section>
  );
}
