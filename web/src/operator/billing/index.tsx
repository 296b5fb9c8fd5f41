import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { type Column, Confirm, DataTable } from "../../console/ui";
import { date, dateTime, money } from "../../format";
import { useLanguage } from "../../i18n";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { Empty, type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { bx } from "./text";

/**
 * `/platform/billing`: a community's invoices and subscription (issue, void, the gateway's callbacks of
 * each) and the plans. The community chosen stays in the address (`?tenant=`). Routes: src/modules/billing.
 */
type InvoiceStatus = "issued" | "paid" | "expired" | "void";
interface Invoice {
  id: string;
  number: string;
  plan: string;
  months: number;
  amount: number;
  dueAt: string;
  status: InvoiceStatus;
  orderId: string | null;
  voidReason: string | null;
}
interface InvoiceList extends Page<Invoice> {
  subscription: {
    plan: string;
    status: "trial" | "aktif" | "tenggang" | "nonaktif";
    activeUntil: string;
    graceUntil: string;
  };
}
interface Plan {
  code: string;
  name: string;
  pricePerMonth: number;
  maxResidents: number | null;
  description: string;
  active: boolean;
}
interface Callback {
  id: string;
  gateway: string;
  verified: boolean;
  outcome: string;
  receivedAt: string;
}
interface Tenant {
  id: string;
  slug: string;
  name: string;
  status: string;
}

const BASE = "/platform/billing";
const PLANS = "/api/platform/billing/plans";

export function Billing() {
  useLanguage();
  const { query, route } = useLocation();
  const tenantId = query.tenant ?? "";
  const tenants = useResource(async () => {
    const out: Tenant[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const page = await api.get<Page<Tenant>>("/api/platform/tenants", { query: { limit: 100, cursor } });
      out.push(...page.items);
      if (!page.nextCursor) {
        break;
      }
      cursor = page.nextCursor;
    }
    return out;
  });
  const plans = useResource(() => api.get<{ items: Plan[] }>(PLANS).then((r) => r.items));
  return (
    <section aria-labelledby="billing-title">
      <h1 id="billing-title">{bx("title")}</h1>
      <Show resource={tenants} lines={1}>
        {(list) => (
          <div class="filters">
            <Select
              label={bx("community")}
              name="tenant"
              value={tenantId}
              onInput={(v) => route(v ? `${BASE}?tenant=${encodeURIComponent(v)}` : BASE, true)}
              options={[
                { value: "", label: bx("choose") },
                ...list.map((t) => ({ value: t.id, label: `${t.name} (${t.slug})` })),
              ]}
            />
          </div>
        )}
      </Show>
      {tenantId ? (
        <Invoices key={tenantId} tenantId={tenantId} plans={plans.state === "ready" ? plans.data : []} />
      ) : (
        <Empty>{bx("pick")}</Empty>
      )}
      <h2>{bx("plans")}</h2>
      <Show resource={plans} lines={3}>
        {(items) => (
          <>
            {items.length === 0 ? (
              <Empty>{bx("noPlans")}</Empty>
            ) : (
              <DataTable
                caption={bx("planList")}
                rowKey={(p) => p.code}
                rows={items}
                columns={[
                  { label: bx("code"), cell: (p) => p.code },
                  { label: bx("name"), cell: (p) => p.name },
                  { label: bx("price"), cell: (p) => money(p.pricePerMonth), numeric: true },
                  {
                    label: bx("maxResidents"),
                    cell: (p) => (p.maxResidents === null ? bx("unlimited") : String(p.maxResidents)),
                    numeric: true,
                  },
                  { label: bx("active"), cell: (p) => (p.active ? bx("yes") : bx("no")) },
                ]}
              />
            )}
            <NewPlan onSaved={plans.state === "ready" ? plans.reload : () => {}} />
          </>
        )}
      </Show>
    </section>
  );
}

const num = (v: string) => (v.trim() === "" ? undefined : Number(v.replace(/\D/g, "")));

function Invoices({ tenantId, plans }: { tenantId: string; plans: Plan[] }) {
  const path = `/api/platform/tenants/${encodeURIComponent(tenantId)}/invoices`;
  const [sub, setSub] = useState<InvoiceList["subscription"] | null>(null);
  const [voiding, setVoiding] = useState<Invoice | null>(null);
  const [reason, setReason] = useState("");
  const [open, setOpen] = useState<string | null>(null);
  const paged = usePaged<Invoice>(
    async (cursor) => {
      const page = await api.get<InvoiceList>(path, { query: { limit: 20, cursor } });
      if (!cursor) {
        setSub(page.subscription);
      }
      return page;
    },
    [path],
  );
  const reload = paged.state === "ready" ? paged.reload : () => {};
  const voider = useSubmit((key) =>
    api.post(`${path}/${voiding?.id}/void`, { reason: reason.trim() }, { idempotencyKey: key }),
  );
  const columns: Column<Invoice>[] = [
    { label: bx("number"), cell: (i) => i.number },
    { label: bx("plan"), cell: (i) => i.plan },
    { label: bx("months"), cell: (i) => String(i.months), numeric: true },
    { label: bx("amount"), cell: (i) => money(i.amount), numeric: true },
    { label: bx("due"), cell: (i) => date(i.dueAt) },
    { label: bx("status"), cell: (i) => (i.voidReason ? `${bx(i.status)}: ${i.voidReason}` : bx(i.status)) },
    {
      label: bx("actions"),
      cell: (i) => (
        <span class="actions">
          {i.orderId && (
            <button
              type="button"
              aria-expanded={open === i.id ? "true" : "false"}
              onClick={() => setOpen(open === i.id ? null : i.id)}
            >
              {bx("callbacks")}
            </button>
          )}
          {i.status === "issued" && (
            <button type="button" class="danger" onClick={() => setVoiding(i)}>
              {bx("voidIt")}
            </button>
          )}
        </span>
      ),
    },
  ];
  return (
    <>
      {sub && (
        <p class="card">
          {bx("subscription", {
            plan: sub.plan,
            status: bx(sub.status),
            until: date(sub.activeUntil),
            grace: date(sub.graceUntil),
          })}
        </p>
      )}
      <h2>{bx("invoices")}</h2>
      <ShowPaged paged={paged} empty={bx("noInvoices")} lines={3}>
        {(items) => {
          const shown = items.find((i) => i.id === open);
          return (
            <>
              <DataTable caption={bx("invoices")} columns={columns} rows={items} rowKey={(i) => i.id} />
              {shown?.orderId && <Callbacks invoice={shown} />}
            </>
          );
        }}
      </ShowPaged>
      <Confirm
        open={voiding !== null}
        danger
        title={bx("voidTitle", { number: voiding?.number ?? "" })}
        confirmLabel={bx("voidGo")}
        busy={voider.busy}
        error={voider.error}
        onCancel={() => setVoiding(null)}
        onConfirm={async () => {
          if (await voider.submit()) {
            setVoiding(null);
            setReason("");
            reload();
          }
        }}
      >
        <TextArea
          label={bx("voidReason")}
          name="reason"
          value={reason}
          onInput={setReason}
          required
          minLength={3}
        />
      </Confirm>
      <NewInvoice path={path} plans={plans} onDone={reload} />
    </>
  );
}

function Callbacks({ invoice }: { invoice: Invoice }) {
  const list = useResource(
    () =>
      api.get<Page<Callback>>("/api/platform/payments/callbacks", {
        query: { orderId: invoice.orderId ?? undefined, limit: 20 },
      }),
    [invoice.orderId],
  );
  return (
    <section class="card" aria-labelledby="callbacks-title">
      <h3 id="callbacks-title">{bx("callbacksOf", { number: invoice.number })}</h3>
      <Show resource={list} lines={2}>
        {(page) =>
          page.items.length === 0 ? (
            <Empty>{bx("noCallbacks")}</Empty>
          ) : (
            <DataTable
              caption={bx("callbacksOf", { number: invoice.number })}
              rowKey={(c) => c.id}
              rows={page.items}
              columns={[
                { label: bx("received"), cell: (c) => dateTime(c.receivedAt) },
                { label: "Gateway", cell: (c) => c.gateway },
                { label: bx("verified"), cell: (c) => (c.verified ? bx("yes") : bx("no")) },
                { label: bx("outcome"), cell: (c) => c.outcome },
              ]}
            />
          )
        }
      </Show>
    </section>
  );
}

function NewInvoice({ path, plans, onDone }: { path: string; plans: Plan[]; onDone: () => void }) {
  const active = plans.filter((p) => p.active);
  const [plan, setPlan] = useState("");
  const [months, setMonths] = useState("1");
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [days, setDays] = useState("");
  const [made, setMade] = useState<string | null>(null);
  const { submit, busy, error, fields } = useSubmit((key) =>
    api.post<Invoice>(
      path,
      {
        plan: plan || active[0]?.code,
        months: num(months) ?? 1,
        amount: num(amount),
        note: note.trim() || undefined,
        dueInDays: num(days),
      },
      { idempotencyKey: key },
    ),
  );
  return (
    <form
      class="card operator-form"
      aria-labelledby="invoice-new-title"
      onSubmit={async (e) => {
        setMade(null);
        const done = await submit(e);
        if (done) {
          setMade(done.number);
          setAmount("");
          setNote("");
          onDone();
        }
      }}
    >
      <h2 id="invoice-new-title">{bx("create")}</h2>
      <Select
        label={bx("plan")}
        name="plan"
        value={plan || active[0]?.code || ""}
        onInput={setPlan}
        error={fields.plan}
        options={active.map((p) => ({ value: p.code, label: `${p.name} (${money(p.pricePerMonth)})` }))}
      />
      <Field
        label={bx("months")}
        name="months"
        inputMode="numeric"
        value={months}
        onInput={setMonths}
        error={fields.months}
      />
      <Field
        label={bx("amountHint")}
        name="amount"
        inputMode="numeric"
        value={amount}
        onInput={setAmount}
        error={fields.amount}
      />
      <Field
        label={bx("dueDays")}
        name="dueInDays"
        inputMode="numeric"
        value={days}
        onInput={setDays}
        error={fields.dueInDays}
      />
      <TextArea label={bx("note")} name="note" value={note} onInput={setNote} rows={2} error={fields.note} />
      <FormError error={error} />
      {made && <p role="status">{bx("created", { number: made })}</p>}
      <Submit busy={busy}>{bx("createGo")}</Submit>
    </form>
  );
}

function NewPlan({ onSaved }: { onSaved: () => void }) {
  const [code, setCode] = useState("");
  const [name, setName] = useState("");
  const [price, setPrice] = useState("");
  const [max, setMax] = useState("");
  const [desc, setDesc] = useState("");
  const [saved, setSaved] = useState(false);
  const { submit, busy, error, fields } = useSubmit((key) =>
    api.post<Plan>(
      PLANS,
      {
        code: code.trim(),
        name: name.trim(),
        pricePerMonth: num(price),
        maxResidents: num(max) ?? null,
        description: desc.trim() || undefined,
      },
      { idempotencyKey: key },
    ),
  );
  return (
    <form
      class="card operator-form"
      aria-labelledby="plan-new-title"
      onSubmit={async (e) => {
        setSaved(false);
        if (await submit(e)) {
          setSaved(true);
          setCode("");
          setName("");
          setPrice("");
          setMax("");
          setDesc("");
          onSaved();
        }
      }}
    >
      <h3 id="plan-new-title">{bx("newPlan")}</h3>
      <Field label={bx("planCode")} name="code" value={code} onInput={setCode} required error={fields.code} />
      <Field label={bx("planName")} name="name" value={name} onInput={setName} required error={fields.name} />
      <Field
        label={bx("planPrice")}
        name="pricePerMonth"
        inputMode="numeric"
        value={price}
        onInput={setPrice}
        required
        error={fields.pricePerMonth}
      />
      <Field
        label={bx("planMax")}
        name="maxResidents"
        inputMode="numeric"
        value={max}
        onInput={setMax}
        error={fields.maxResidents}
      />
      <TextArea
        label={bx("planDesc")}
        name="description"
        value={desc}
        onInput={setDesc}
        rows={2}
        error={fields.description}
      />
      <FormError error={error} />
      {saved && <p role="status">{bx("planSaved")}</p>}
      <Submit busy={busy}>{bx("planGo")}</Submit>
    </form>
  );
}
