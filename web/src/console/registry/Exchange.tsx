import { useId, useState } from "preact/hooks";
import { api, saveBlob } from "../../api/client";
import { jakartaDay } from "../../format";
import { useLanguage } from "../../i18n";
import { FormError, useSubmit } from "../../ui/forms";
import { DataTable, Progress } from "../ui";
import { fieldLabel, tx } from "./text";
import { BASE } from "./types";

interface Report {
  dryRun: boolean;
  ok: boolean;
  rows: number;
  families: number;
  members: number;
  vehicles: number;
  units: number;
  written: boolean;
  errors: { sheet: string; row: number; field: string; message: string }[];
}

/**
 * `/pengurus/warga/impor`: a workbook is checked first (`dryRun=true`: the per-row report, nothing
 * written); only a clean report offers the real import (all or nothing). Export downloads the registry.
 */
export function Exchange() {
  useLanguage();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const [missing, setMissing] = useState(false);
  const send = (dryRun: boolean, key: string) => {
    const form = new FormData();
    form.set("file", file as File);
    return api.upload<Report>(`${BASE}/import`, form, { query: { dryRun }, idempotencyKey: key });
  };
  const check = useSubmit(async (key) => {
    setReport(null);
    const answer = await send(true, key);
    setReport(answer);
    return answer;
  });
  const write = useSubmit(async (key) => {
    const answer = await send(false, key);
    setReport(answer);
    return answer;
  });
  return (
    <section aria-labelledby="exch-title">
      <h1 id="exch-title">{tx("exchangeTitle")}</h1>
      <div class="card">
        <h2>{tx("importTitle")}</h2>
        <p class="muted">{tx("importIntro")}</p>
        <form
          class="reg-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!file) {
              setMissing(true);
              return;
            }
            check.submit();
          }}
        >
          <div class="field">
            <label for={inputId}>{tx("file")}</label>
            <input
              id={inputId}
              type="file"
              name="file"
              accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
              aria-describedby={missing ? `${inputId}-missing` : undefined}
              onChange={(e) => {
                setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null);
                setMissing(false);
                setReport(null);
              }}
            />
            {missing && (
              <p id={`${inputId}-missing`} class="field-error" role="alert">
                {tx("chooseFile")}
              </p>
            )}
          </div>
          <FormError error={check.error} />
          <button type="submit" class="primary" disabled={check.busy || write.busy}>
            {tx("check")}
          </button>
        </form>
        {check.busy && <Progress label={tx("checking")} />}
        {write.busy && <Progress label={tx("importing")} />}
        {report && <ReportView report={report} />}
        {report?.dryRun && report.ok && (
          <div class="actions">
            <FormError error={write.error} />
            <button type="button" class="primary" disabled={write.busy} onClick={() => write.submit()}>
              {tx("doImport")}
            </button>
          </div>
        )}
      </div>
      <Export />
    </section>
  );
}

function ReportView({ report }: { report: Report }) {
  return (
    <section class="reg-report" aria-labelledby="report-title">
      <h3 id="report-title">{tx("reportTitle")}</h3>
      <p class={report.ok ? "notice" : "alert"} role="status">
        {report.written
          ? tx("imported", { families: report.families, members: report.members })
          : report.ok
            ? tx("reportOk")
            : tx("reportBad", { n: report.errors.length })}
      </p>
      <dl class="facts">
        <dt>{tx("rows")}</dt>
        <dd>{report.rows}</dd>
        <dt>{tx("newFamilies")}</dt>
        <dd>{report.families}</dd>
        <dt>{tx("newMembers")}</dt>
        <dd>{report.members}</dd>
        <dt>{tx("newVehicles")}</dt>
        <dd>{report.vehicles}</dd>
        <dt>{tx("newUnits")}</dt>
        <dd>{report.units}</dd>
      </dl>
      {report.errors.length > 0 && (
        <DataTable
          caption={tx("errorsCaption")}
          rows={report.errors.slice(0, 200)}
          rowKey={(e) => `${e.sheet}-${e.row}-${e.field}-${e.message}`}
          columns={[
            { label: tx("sheet"), cell: (e) => e.sheet },
            { label: tx("row"), cell: (e) => e.row },
            { label: tx("field"), cell: (e) => fieldLabel(e.field) },
            { label: tx("message"), cell: (e) => e.message },
          ]}
        />
      )}
    </section>
  );
}

function Export() {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const download = async (format: "xlsx" | "csv") => {
    setBusy(format);
    setError(null);
    try {
      const blob = await api.blob(`${BASE}/export`, { query: { format } });
      saveBlob(blob, `kependudukan-${jakartaDay(new Date())}.${format}`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div class="card">
      <h2>{tx("exportTitle")}</h2>
      <p class="muted">{tx("exportIntro")}</p>
      {busy && <Progress label={tx("exporting")} />}
      <FormError error={error} />
      <div class="actions">
        <button type="button" disabled={busy !== null} onClick={() => download("xlsx")}>
          {tx("exportXlsx")}
        </button>
        <button type="button" disabled={busy !== null} onClick={() => download("csv")}>
          {tx("exportCsv")}
        </button>
      </div>
    </div>
  );
}
