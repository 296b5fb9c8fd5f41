import { ROLES, tenantAccess } from "../../core/http/access";
import { indicator } from "../../core/indicators";
import { CRON, tenantJob } from "../../core/jobs";
import { defineModule } from "../../core/module";
import { jakartaDay } from "../../core/time";
import { versioned } from "../../platform/conditional";
import { KEUANGAN_ERROR_CODES } from "./errors";
import { arrearsAmountQuery, arrearsUnitsQuery } from "./iuran/arrears";
import { generateBills } from "./iuran/generate";
import { DUES_PAYMENT_KIND, onDuesOrderPaid } from "./iuran/online";
import { releaseHeldReminders } from "./iuran/pengingat";
import { keuanganFileReferences, keuanganPersonalData } from "./manifest";
import { CorrectCashEntry } from "./routes/correctCashEntry";
import { CreateCampaign } from "./routes/createCampaign";
import { CreateCashEntry } from "./routes/createCashEntry";
import { CreateDuesType } from "./routes/createDuesType";
import { DecideDonation } from "./routes/decideDonation";
import { DecideExpense } from "./routes/decideExpense";
import { Donate } from "./routes/donate";
import { GenerateBills } from "./routes/generateBills";
import { GetArrears } from "./routes/getArrears";
import { GetBudget } from "./routes/getBudget";
import { GetCampaign } from "./routes/getCampaign";
import { GetFinanceSettings } from "./routes/getFinanceSettings";
import { GetGraceDebts } from "./routes/getGraceDebts";
import { GetMovedOutDebts } from "./routes/getMovedOutDebts";
import { GetMyDues } from "./routes/getMyDues";
import { GetPublicReport } from "./routes/getPublicReport";
import { GetReport } from "./routes/getReport";
import { ListBills } from "./routes/listBills";
import { ListCampaigns } from "./routes/listCampaigns";
import { ListCash } from "./routes/listCash";
import { ListDuesTypes } from "./routes/listDuesTypes";
import { ListExpenses } from "./routes/listExpenses";
import { PayBillsOnline } from "./routes/payBillsOnline";
import { PayGraceDebts } from "./routes/payGraceDebts";
import { PayOnline } from "./routes/payOnline";
import { PreviewBills } from "./routes/previewBills";
import { PutBudget } from "./routes/putBudget";
import { RecordPayment } from "./routes/recordPayment";
import { ReversePayment } from "./routes/reversePayment";
import { SendReminders } from "./routes/sendReminders";
import { SubmitExpense } from "./routes/submitExpense";
import { UpdateCampaign } from "./routes/updateCampaign";
import { UpdateDuesType } from "./routes/updateDuesType";
import { UpdateFinanceSettings } from "./routes/updateFinanceSettings";
import { budgetYears, campaigns, duesTypes, financeSettings } from "./tables";

// Issue 14: the treasurer (and the head) write, the head approves expenses and sets the budget, the
// secretary reads, residents see their own bills, the campaigns and the published report. The spec
// puts finance behind no feature flag.
const staff = tenantAccess(ROLES.STAFF);
const finance = tenantAccess(ROLES.FINANCE);
const admin = tenantAccess(ROLES.ADMIN);
const resident = tenantAccess(ROLES.RESIDENT);
const member = tenantAccess(ROLES.MEMBER);
const donor = tenantAccess([...ROLES.RESIDENT, ...ROLES.FINANCE]);

export const keuanganModule = defineModule({
  name: "keuangan",
  errorCodes: KEUANGAN_ERROR_CODES,
  // Served with ETag, If-None-Match and If-Match (platform/conditional, ADR 0035).
  versioned: [
    versioned("/api/kampanye/:id", campaigns),
    versioned("/api/iuran/jenis/:id", duesTypes),
    versioned("/api/keuangan/pengaturan", financeSettings, { id: 1 }),
    // The budget of a year: the GET names the year in its query, the PUT in its path; one version, the
    // year's row (budget_years), 0 before its first save.
    versioned("/api/anggaran", budgetYears, { query: "tahun", key: budgetYears.year, implicit: true }),
    versioned("/api/anggaran/:tahun", budgetYears, { param: "tahun", key: budgetYears.year, implicit: true }),
  ],
  fileReferences: keuanganFileReferences,
  personalData: keuanganPersonalData,
  routes: [
    { method: "get", path: "/api/iuran/jenis", endpoint: ListDuesTypes, access: staff },
    { method: "post", path: "/api/iuran/jenis", endpoint: CreateDuesType, access: finance },
    { method: "put", path: "/api/iuran/jenis/:id", endpoint: UpdateDuesType, access: finance },
    { method: "get", path: "/api/iuran/tagihan/pratinjau", endpoint: PreviewBills, access: finance },
    { method: "post", path: "/api/iuran/tagihan/generate", endpoint: GenerateBills, access: finance },
    { method: "get", path: "/api/iuran/tagihan", endpoint: ListBills, access: staff },
    { method: "post", path: "/api/iuran/tagihan/:id/pembayaran", endpoint: RecordPayment, access: finance },
    {
      method: "post",
      path: "/api/iuran/pembayaran/:id/pembatalan",
      endpoint: ReversePayment,
      access: finance,
    },
    { method: "post", path: "/api/iuran/tagihan/:id/bayar-online", endpoint: PayOnline, access: resident },
    { method: "post", path: "/api/iuran/bayar-online", endpoint: PayBillsOnline, access: resident },
    { method: "get", path: "/api/iuran/mine", endpoint: GetMyDues, access: resident },
    { method: "get", path: "/api/iuran/tunggakan", endpoint: GetArrears, access: staff },
    { method: "get", path: "/api/iuran/tunggakan/pindah", endpoint: GetMovedOutDebts, access: staff },
    // Issue 45: a moved-out family's own debt, for its members in their grace period (no community
    // role any more, so at the user level; iuran/tanggungan.ts decides whose bills are reachable).
    { method: "get", path: "/api/user/tanggungan", endpoint: GetGraceDebts, access: { scope: "user" } },
    {
      method: "post",
      path: "/api/user/tanggungan/bayar",
      endpoint: PayGraceDebts,
      access: { scope: "user" },
    },
    { method: "post", path: "/api/iuran/pengingat", endpoint: SendReminders, access: finance },
    { method: "get", path: "/api/kas", endpoint: ListCash, access: staff },
    { method: "post", path: "/api/kas", endpoint: CreateCashEntry, access: finance },
    { method: "post", path: "/api/kas/:id/koreksi", endpoint: CorrectCashEntry, access: finance },
    { method: "get", path: "/api/anggaran", endpoint: GetBudget, access: staff },
    { method: "put", path: "/api/anggaran/:tahun", endpoint: PutBudget, access: admin },
    { method: "get", path: "/api/pengeluaran", endpoint: ListExpenses, access: staff },
    { method: "post", path: "/api/pengeluaran", endpoint: SubmitExpense, access: finance },
    // The finance group reaches it; the verb keeps the duties apart (a treasurer decides only the head's).
    { method: "put", path: "/api/pengeluaran/:id", endpoint: DecideExpense, access: finance },
    { method: "get", path: "/api/kampanye", endpoint: ListCampaigns, access: member },
    { method: "post", path: "/api/kampanye", endpoint: CreateCampaign, access: staff },
    { method: "get", path: "/api/kampanye/:id", endpoint: GetCampaign, access: member },
    { method: "put", path: "/api/kampanye/:id", endpoint: UpdateCampaign, access: staff },
    { method: "post", path: "/api/kampanye/:id/donasi", endpoint: Donate, access: donor },
    {
      method: "put",
      path: "/api/kampanye/:id/donasi/:donationId",
      endpoint: DecideDonation,
      access: finance,
    },
    { method: "get", path: "/api/laporan/keuangan", endpoint: GetReport, access: staff },
    { method: "get", path: "/api/keuangan/pengaturan", endpoint: GetFinanceSettings, access: staff },
    { method: "put", path: "/api/keuangan/pengaturan", endpoint: UpdateFinanceSettings, access: admin },
    {
      method: "get",
      path: "/api/public/tenants/:slug/laporan",
      endpoint: GetPublicReport,
      access: { scope: "public-tenant" },
    },
  ],
  indicators: [
    indicator({ key: "duesArrears", label: "Dues arrears (Rp)", query: arrearsAmountQuery }),
    indicator({ key: "duesArrearsUnits", label: "Units in dues arrears", query: arrearsUnitsQuery }),
  ],
  payments: [{ kind: DUES_PAYMENT_KIND, onPaid: onDuesOrderPaid }],
  jobs: [
    // Just after midnight WIB: the 1st issues the month's bills. The 2nd and 3rd run it again so a missed
    // trigger is caught up; the unique (type, period, target) key makes every repeat a no-op.
    tenantJob("keuangan.generate-dues", CRON.JAKARTA_DAILY, async (ctx, scheduledAt) => {
      const day = jakartaDay(scheduledAt);
      if (Number(day.slice(8)) > 3) {
        return { created: 0, skipped: true };
      }
      const result = await generateBills({ ctx, period: day.slice(0, 7) });
      return { created: result.created, skipped: false };
    }),
    // Reminders asked for during the quiet hours (21:00–07:00 WIB) go out at 07:00.
    tenantJob("keuangan.release-reminders", CRON.HOURLY, async (ctx, scheduledAt) =>
      releaseHeldReminders(ctx, scheduledAt),
    ),
  ],
});
