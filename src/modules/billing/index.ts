import { ROLES, tenantAccess } from "../../core/http/access";
import { CRON } from "../../core/jobs";
import { defineModule } from "../../core/module";
import { BILLING_ERROR_CODES } from "./errors";
import { CreatePlan } from "./routes/createPlan";
import { IssueInvoice } from "./routes/issueInvoice";
import { IssueOperatorInvoice } from "./routes/issueOperatorInvoice";
import { ListInvoices } from "./routes/listInvoices";
import { ListOperatorInvoices } from "./routes/listOperatorInvoices";
import { ListPaymentCallbacks } from "./routes/listPaymentCallbacks";
import { ListPlans } from "./routes/listPlans";
import { ListPlatformPlans } from "./routes/listPlatformPlans";
import { VoidOperatorInvoice } from "./routes/voidOperatorInvoice";
import { BILLING_KIND, onInvoicePaid, onInvoiceReversed, runBillingDay } from "./service";

// The community's subscription (spec: S creates and lists invoices; issue 42: every duty, the treasurer too).
const staff = tenantAccess(ROLES.STAFF);
const platform = { scope: "platform" } as const;

export const billingModule = defineModule({
  name: "billing",
  errorCodes: BILLING_ERROR_CODES,
  // Paying is how a lapsed community gets back: billing's writes stay open when it is `nonaktif`.
  writesWhenInactive: true,
  routes: [
    { method: "post", path: "/api/billing/invoices", endpoint: IssueInvoice, access: staff },
    { method: "get", path: "/api/billing/invoices", endpoint: ListInvoices, access: staff },
    { method: "get", path: "/api/billing/plans", endpoint: ListPlans, access: staff },
    {
      method: "post",
      path: "/api/platform/tenants/:id/invoices",
      endpoint: IssueOperatorInvoice,
      access: platform,
    },
    {
      method: "get",
      path: "/api/platform/tenants/:id/invoices",
      endpoint: ListOperatorInvoices,
      access: platform,
    },
    {
      method: "post",
      path: "/api/platform/tenants/:id/invoices/:invoiceId/void",
      endpoint: VoidOperatorInvoice,
      access: platform,
    },
    { method: "get", path: "/api/platform/billing/plans", endpoint: ListPlatformPlans, access: platform },
    { method: "post", path: "/api/platform/billing/plans", endpoint: CreatePlan, access: platform },
    {
      method: "get",
      path: "/api/platform/payments/callbacks",
      endpoint: ListPaymentCallbacks,
      access: platform,
    },
  ],
  payments: [{ kind: BILLING_KIND, onPaid: onInvoicePaid, onReversed: onInvoiceReversed }],
  jobs: [{ name: "billing.daily", cron: CRON.JAKARTA_DAILY, run: runBillingDay }],
});
