import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { ApiError, api } from "../../api/client";
import { date, dateTime, money, period } from "../../format";
import { type MessageKey, t, useLanguage } from "../../i18n";
import { useSession } from "../../session";
import { FormError, useSubmit } from "../../ui/forms";
import { Empty, Failed, Loading, type Resource, useResource } from "../../ui/states";

/** The household's bills as GET /api/iuran/mine answers them: unpaid first, each with its payments. */
export interface OwnPayment {
  id: string;
  amount: number;
  method: "tunai" | "transfer" | "online";
  paidAt: string;
  orderId: string | null;
  reversed: boolean;
}
export interface Bill {
  id: string;
  typeName: string;
  period: string;
  amount: number;
  paidAmount: number;
  outstanding: number;
  status: "belum" | "sebagian" | "lunas";
  payments: OwnPayment[];
  /** The day (Jakarta) the bill is due; open and past it, the bill is tunggakan (else "bulan ini"). */
  dueDate: string;
  overdue: boolean;
}
export interface MyDues {
  unitId: string;
  items: Bill[];
  totals: {
    billed: number;
    paid: number;
    outstanding: number;
    unpaidBills: number;
    overdue: number;
    notYetDue: number;
  };
}
interface OnlinePayment {
  orderId: string;
  paymentUrl: string;
  amount: number;
  expiresAt: string;
}

/** Leaving the app for the gateway's checkout (a seam for the component tests). */
export const gateway = { open: (url: string) => window.location.assign(url) };

const RECEIPT = "/iuran/kuitansi/";

/**
 * `/iuran`: the household's bills, paying one online, and the history of payments; `/iuran?bayar=<order>`
 * is where the gateway sends the payer back (the order's receipt once its callback has landed);
 * `/iuran/kuitansi/<payment>` is one payment's receipt.
 */
export function Iuran() {
  useLanguage();
  const { path, query } = useLocation();
  const dues = useResource(() => api.get<MyDues>("/api/iuran/mine"));
  const receiptId = path.startsWith(RECEIPT) ? decodeURIComponent(path.slice(RECEIPT.length)) : null;
  if (receiptId) {
    return (
      <section class="iuran" aria-labelledby="iuran-title">
        <p>
          <a href="/iuran">{t("iuran.backToBills")}</a>
        </p>
        <h1 id="iuran-title">{t("iuran.receipt")}</h1>
        <Loaded dues={dues}>{(d) => <ReceiptOf dues={d} find={(p) => p.id === receiptId} />}</Loaded>
      </section>
    );
  }
  return (
    <section class="iuran" aria-labelledby="iuran-title">
      <h1 id="iuran-title">{t("iuran.title")}</h1>
      {query.bayar && <Returned dues={dues} orderId={query.bayar} />}
      <Loaded dues={dues}>
        {(d) => <Bills dues={d} reload={dues.state === "ready" ? dues.reload : () => {}} />}
      </Loaded>
    </section>
  );
}

/** The dues, or why not: a profile without a house has no bills yet, and is sent to complete it. */
function Loaded({ dues, children }: { dues: Resource<MyDues>; children: (d: MyDues) => ComponentChildren }) {
  if (dues.state === "loading") {
    return <Loading lines={4} />;
  }
  if (dues.state === "error") {
    if (dues.error instanceof ApiError && dues.error.problem.code === "profile_incomplete") {
      return (
        <div class="card">
          <p>{t("iuran.profileIncomplete")}</p>
          <a class="button primary" href="/profil">
            {t("iuran.completeProfile")}
          </a>
        </div>
      );
    }
    return <Failed error={dues.error} retry={dues.retry} />;
  }
  return <>{children(dues.data)}</>;
}

function Bills({ dues, reload }: { dues: MyDues; reload: () => void }) {
  const unpaid = dues.items.filter((b) => b.status !== "lunas");
  const overdue = unpaid.filter((b) => b.overdue);
  const current = unpaid.filter((b) => !b.overdue);
  // Every open bill is ticked at first: paying all of them in one checkout is the usual wish.
  const [unticked, setUnticked] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setUnticked((before) => {
      const next = new Set(before);
      next.has(id) ? next.delete(id) : next.add(id);
      return next;
    });
  const chosen = unpaid.filter((b) => !unticked.has(b.id));
  const payments = dues.items
    .flatMap((bill) => bill.payments.map((payment) => ({ bill, payment })))
    .sort((a, b) => b.payment.paidAt.localeCompare(a.payment.paidAt));
  const group = (titleKey: MessageKey, bills: Bill[], id: string) =>
    bills.length > 0 && (
      <section aria-labelledby={id}>
        <h3 id={id}>{t(titleKey)}</h3>
        <ul class="rows iuran-bills">
          {bills.map((bill) => (
            <li key={bill.id}>
              <label class="iuran-pick">
                <input
                  type="checkbox"
                  checked={!unticked.has(bill.id)}
                  onChange={() => toggle(bill.id)}
                  aria-label={t("iuran.pick", { name: bill.typeName, period: period(bill.period) })}
                />
                <span>
                  <strong>{bill.typeName}</strong>
                  <br />
                  <span class="muted">
                    {period(bill.period)} · {t("iuran.dueDate", { date: date(bill.dueDate) })}
                  </span>
                  {bill.status === "sebagian" && (
                    <>
                      {" "}
                      <span class="badge">{t("iuran.partial", { paid: money(bill.paidAmount) })}</span>
                    </>
                  )}
                </span>
              </label>
              <PayButton bill={bill} onGone={reload} />
            </li>
          ))}
        </ul>
      </section>
    );
  return (
    <>
      <article class="card" aria-labelledby="iuran-due-title">
        <h2 id="iuran-due-title">{t("iuran.due")}</h2>
        {unpaid.length === 0 ? (
          <Empty>{t("iuran.dueNone")}</Empty>
        ) : (
          <>
            {group("iuran.overdue", overdue, "iuran-overdue-title")}
            {group("iuran.thisMonth", current, "iuran-current-title")}
            <p class="total">{t("iuran.total", { amount: money(dues.totals.outstanding) })}</p>
            {unpaid.length > 1 && <PayMany bills={chosen} onGone={reload} />}
          </>
        )}
      </article>
      <article class="card" aria-labelledby="iuran-history-title">
        <h2 id="iuran-history-title">{t("iuran.history")}</h2>
        {payments.length === 0 ? (
          <Empty>{t("iuran.historyNone")}</Empty>
        ) : (
          <ul class="rows">
            {payments.map(({ bill, payment }) => (
              <li key={payment.id}>
                <span>
                  {bill.typeName} · {period(bill.period)}
                  <br />
                  <span class="muted">
                    {dateTime(payment.paidAt)} · {t(`iuran.method.${payment.method}` as MessageKey)}
                    {payment.reversed && ` · ${t("iuran.reversed")}`}
                  </span>
                </span>
                <span class="iuran-paid">
                  <strong>{money(payment.amount)}</strong>
                  <a href={`${RECEIPT}${encodeURIComponent(payment.id)}`}>
                    {t("iuran.receiptLink")}
                    <span class="sr-only">
                      {" "}
                      {bill.typeName} {period(bill.period)}
                    </span>
                  </a>
                </span>
              </li>
            ))}
          </ul>
        )}
      </article>
    </>
  );
}

/**
 * The ticked bills in ONE checkout (POST /api/iuran/bayar-online): one gateway fee for several months.
 * The API hands out the same open order when asked again for the same bills.
 */
function PayMany({ bills, onGone }: { bills: Bill[]; onGone: () => void }) {
  const pay = useSubmit((key) =>
    api.post<OnlinePayment>(
      "/api/iuran/bayar-online",
      { billIds: bills.map((b) => b.id) },
      { idempotencyKey: key },
    ),
  );
  const start = async () => {
    const order = await pay.submit();
    if (order) {
      gateway.open(order.paymentUrl);
    }
  };
  const amount = bills.reduce((sum, b) => sum + b.outstanding, 0);
  const paidMeanwhile = pay.error instanceof ApiError && pay.error.problem.code === "bill_paid";
  return (
    <div class="iuran-pay-many">
      <button
        type="button"
        class="primary"
        onClick={start}
        disabled={pay.busy || bills.length === 0}
        aria-busy={pay.busy ? "true" : undefined}
      >
        {pay.busy
          ? t("common.sending")
          : t("iuran.payMany", { count: String(bills.length), amount: money(amount) })}
      </button>
      <FormError error={pay.error} />
      {paidMeanwhile && (
        <button type="button" onClick={onGone}>
          {t("iuran.refresh")}
        </button>
      )}
    </div>
  );
}

/** Opens (or reopens: the API hands out the same open order) the gateway's checkout for one bill. */
function PayButton({ bill, onGone }: { bill: Bill; onGone: () => void }) {
  const pay = useSubmit((key) =>
    api.post<OnlinePayment>(`/api/iuran/tagihan/${encodeURIComponent(bill.id)}/bayar-online`, undefined, {
      idempotencyKey: key,
    }),
  );
  const start = async () => {
    const order = await pay.submit();
    if (order) {
      gateway.open(order.paymentUrl);
    }
  };
  const paidMeanwhile = pay.error instanceof ApiError && pay.error.problem.code === "bill_paid";
  return (
    <span class="iuran-pay">
      <strong>{money(bill.outstanding)}</strong>
      <button
        type="button"
        class="primary"
        onClick={start}
        disabled={pay.busy}
        aria-busy={pay.busy ? "true" : undefined}
        aria-label={t("iuran.payLabel", { name: bill.typeName, period: period(bill.period) })}
      >
        {pay.busy ? t("common.sending") : t("iuran.pay")}
      </button>
      <FormError error={pay.error} />
      {paidMeanwhile && (
        <button type="button" onClick={onGone}>
          {t("iuran.refresh")}
        </button>
      )}
    </span>
  );
}

/** Back from the gateway: the order's payments (one per bill it paid) and their receipts, or "not confirmed yet" with a re-check. */
function Returned({ dues, orderId }: { dues: Resource<MyDues>; orderId: string }) {
  const session = useSession();
  const community = session.status === "signedIn" ? session.user.tenant?.name : undefined;
  if (dues.state !== "ready") {
    return null;
  }
  const found = dues.data.items.some((b) => b.payments.some((p) => p.orderId === orderId));
  if (!found) {
    return (
      <div class="card iuran-waiting" role="status">
        <p>{t("iuran.waiting")}</p>
        <button type="button" onClick={dues.reload}>
          {t("iuran.checkAgain")}
        </button>
      </div>
    );
  }
  return (
    <div class="iuran-returned">
      <p class="iuran-ok" role="status">
        {t("iuran.paidOk")}
      </p>
      {dues.data.items.flatMap((bill) =>
        bill.payments
          .filter((p) => p.orderId === orderId)
          .map((payment) => <Receipt key={payment.id} bill={bill} payment={payment} community={community} />),
      )}
    </div>
  );
}

function ReceiptOf({ dues, find }: { dues: MyDues; find: (p: OwnPayment) => boolean }) {
  const session = useSession();
  for (const bill of dues.items) {
    const payment = bill.payments.find(find);
    if (payment) {
      const community = session.status === "signedIn" ? session.user.tenant?.name : undefined;
      return <Receipt bill={bill} payment={payment} community={community} />;
    }
  }
  return <Empty>{t("iuran.receiptMissing")}</Empty>;
}

/** A receipt from the payment's own record: what was paid, for which bill, when and how. */
export function Receipt({
  bill,
  payment,
  community,
}: {
  bill: Bill;
  payment: OwnPayment;
  community?: string;
}) {
  return (
    <article class="card iuran-receipt" aria-labelledby={`receipt-${payment.id}`}>
      <h2 id={`receipt-${payment.id}`}>{t("iuran.receiptTitle")}</h2>
      {community && <p class="muted">{community}</p>}
      <dl>
        <dt>{t("iuran.receiptNumber")}</dt>
        <dd>{payment.id}</dd>
        <dt>{t("iuran.receiptFor")}</dt>
        <dd>
          {bill.typeName} · {period(bill.period)}
        </dd>
        <dt>{t("iuran.receiptAmount")}</dt>
        <dd>{money(payment.amount)}</dd>
        <dt>{t("iuran.receiptMethod")}</dt>
        <dd>{t(`iuran.method.${payment.method}` as MessageKey)}</dd>
        <dt>{t("iuran.receiptPaidAt")}</dt>
        <dd>{dateTime(payment.paidAt)}</dd>
        {payment.orderId && (
          <>
            <dt>{t("iuran.receiptOrder")}</dt>
            <dd>{payment.orderId}</dd>
          </>
        )}
        <dt>{t("iuran.receiptStatus")}</dt>
        <dd>
          {payment.reversed
            ? t("iuran.reversed")
            : bill.status === "lunas"
              ? t("iuran.billPaid")
              : t("iuran.billPartly", { amount: money(bill.outstanding) })}
        </dd>
      </dl>
      <button type="button" class="iuran-print" onClick={() => window.print()}>
        {t("iuran.print")}
      </button>
    </article>
  );
}
