/**
 * Billing's verbs, by subject: the subscription and what the verbs share (`subscriptions.ts`), invoices
 * issued, listed and voided (`invoices.ts`), the payment handlers (`payments.ts`), the daily run
 * (`billing-day.ts`) and plans (`plans.ts`).
 */

export { type DailyReport, runBillingDay } from "./billing-day";
export {
  issueInvoice,
  issueOperatorInvoice,
  listInvoices,
  listOperatorInvoices,
  voidInvoice,
} from "./invoices";
export { onInvoicePaid, onInvoiceReversed } from "./payments";
export { createPlan, listPlans } from "./plans";
export { BILLING_KIND, GRACE_DAYS, presentInvoice, subscriptionStatusAt, TRIAL_DAYS } from "./subscriptions";
