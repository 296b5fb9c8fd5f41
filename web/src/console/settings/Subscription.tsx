import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date, money } from "../../format";
import { useLanguage } from "../../i18n";
import { FormError, Select, Submit, useSubmit } from "../../ui/forms";
import { type Page, type Resource, Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { DataTable } from "../ui";
import { tx } from "./text";

type InvoiceStatus = "issued" | "paid" | "expired" | "void";
type SubscriptionStatus = "trial" | "aktif" | "tenggang" | "nonaktif";

interface Invoice {
  id: string;
  number: string;
  plan: string;
  months: number;
  amount: number;
  dueAt: string;
  status: InvoiceStatus;
  paymentUrl: string | null;
  paidAt: string | null;
  voidReason: string | null;
  createdAt: string;
}

interface SubscriptionState {
  plan: string;
  status: SubscriptionStatus;
  activeUntil: string;
  graceUntil: string;
}

interface InvoicePage extends Page<Invoice> {
  subscription: SubscriptionState;
}

interface Plan {
  code: string;
  name: string;
  pricePerMonth: number;
  description: string;
  active: boolean;
}

/**
 * `/pengurus/pengaturan/langganan`: the subscription (its plan and dates) and its invoices
 * (GET /api/billing/invoices, paged). An unpaid invoice is paid at the gateway's checkout (its
 * `paymentUrl`); a new invoice for a plan and a length is issued here (POST /api/billing/invoices).
 */
export function Subscription() {
  useLanguage();
  const plans = useResource(() => api.get<{ items: Plan[] }>("/api/billing/plans"));
  const planName = (code: string) =>
    (plans.state === "ready" ? plans.data.items.find((p) => p.code === code)?.name : undefined) ?? code;
  const [subscription, setSubscription] = useState<SubscriptionState | null>(null);
  const invoices = usePaged<Invoice>(
    (cursor) =>
      api.get<InvoicePage>("/api/billing/invoices", { query: { limit: 20, cursor } }).then((page) => {
        if (!cursor) {
          setSubscription(page.subscription);
        }
        return page;
      }),
    [],
  );
  return (
    <section aria-labelledby="sub-title" class="set">
      <p>
        <a href="/pengurus/pengaturan">{tx("back")}</a>
      </p>
      <h1 id="sub-title">{tx("subscription")}</h1>
      {subscription && (
        <dl class="card set-facts">
          <div>
            <dt>{tx("plan")}</dt>
            <dd>{planName(subscription.plan)}</dd>
          </div>
          <div>
            <dt>{tx("status")}</dt>
            <dd>
              <span class={`badge set-sub-${subscription.status}`}>{tx(`sub_${subscription.status}`)}</span>
            </dd>
          </div>
          <div>
            <dt>{tx("activeUntil")}</dt>
            <dd>{date(subscription.activeUntil)}</dd>
          </div>
          <div>
            <dt>{tx("graceUntil")}</dt>
            <dd>{date(subscription.graceUntil)}</dd>
          </div>
        </dl>
      )}
      <h2>{tx("invoices")}</h2>
      <ShowPaged paged={invoices} empty={tx("noInvoices")}>
        {(rows) => (
          <DataTable
            caption={tx("invoices")}
            rowKey={(i) => i.id}
            rows={rows}
            columns={[
              { label: tx("number"), cell: (i) => i.number },
              { label: tx("plan"), cell: (i) => planName(i.plan) },
              { label: tx("months"), numeric: true, cell: (i) => i.months },
              { label: tx("amount"), numeric: true, cell: (i) => money(i.amount) },
              { label: tx("due"), cell: (i) => date(i.dueAt) },
              { label: tx("status"), cell: (i) => <InvoiceState invoice={i} /> },
            ]}
          />
        )}
      </ShowPaged>
      <Renew plans={plans} onIssued={() => invoices.state === "ready" && invoices.reload()} />
    </section>
  );
}

function InvoiceState({ invoice }: { invoice: Invoice }) {
  if (invoice.status === "issued" && invoice.paymentUrl) {
    return (
      <span class="set-pay">
        <span class="badge set-inv-issued">{tx("inv_issued")}</span>
        <a
          class="button primary"
          href={invoice.paymentUrl}
          aria-label={tx("payLabel", { number: invoice.number })}
        >
          {tx("pay")}
        </a>
      </span>
    );
  }
  return (
    <span>
      <span class={`badge set-inv-${invoice.status}`}>{tx(`inv_${invoice.status}`)}</span>
      {invoice.paidAt && <span class="muted"> {tx("paidAt", { date: date(invoice.paidAt) })}</span>}
      {invoice.voidReason && <span class="muted"> {tx("voided", { reason: invoice.voidReason })}</span>}
    </span>
  );
}

/** A new invoice for a plan and a length (1–36 months), paid at the gateway right after. */
function Renew({ plans, onIssued }: { plans: Resource<{ items: Plan[] }>; onIssued: () => void }) {
  const [plan, setPlan] = useState("");
  const [months, setMonths] = useState("12");
  const [issued, setIssued] = useState<Invoice | null>(null);
  const form = useSubmit((key) =>
    api.post<Invoice>("/api/billing/invoices", { plan, months: Number(months) }, { idempotencyKey: key }),
  );
  const onSubmit = async (event: Event) => {
    const invoice = await form.submit(event);
    if (invoice) {
      setIssued(invoice);
      onIssued();
    }
  };
  return (
    <section class="card" aria-labelledby="renew-title">
      <h2 id="renew-title">{tx("renew")}</h2>
      <p class="muted">{tx("renewLead")}</p>
      <Show resource={plans}>
        {(p) => (
          <form class="set-form" onSubmit={onSubmit}>
            <Select
              label={tx("plan")}
              name="plan"
              value={plan}
              onInput={setPlan}
              required
              error={form.fields.plan}
              options={[
                { value: "", label: tx("choosePlan") },
                ...p.items
                  .filter((x) => x.active)
                  .map((x) => ({
                    value: x.code,
                    label: `${x.name} · ${tx("perMonth", { price: money(x.pricePerMonth) })}`,
                  })),
              ]}
            />
            <Select
              label={tx("months")}
              name="months"
              value={months}
              onInput={setMonths}
              error={form.fields.months}
              options={["1", "3", "6", "12", "24", "36"].map((m) => ({ value: m, label: m }))}
            />
            <FormError error={form.error} />
            <Submit busy={form.busy}>{tx("issue")}</Submit>
          </form>
        )}
      </Show>
      {issued && (
        <div role="status" class="set-issued">
          <p>{tx("issued", { number: issued.number })}</p>
          {issued.paymentUrl && (
            <a class="button primary" href={issued.paymentUrl}>
              {tx("payLabel", { number: issued.number })}
            </a>
          )}
        </div>
      )}
    </section>
  );
}
