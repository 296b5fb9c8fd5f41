/**
 * The local payment simulator's checkout page (`/dev/payments/:orderId`): what Snap's redirect URL
 * opens in `npm run dev`, where there is no internet and no gateway keys. "Bayar" and "Gagal" are
 * plain forms; the server marks the simulated transaction settled or denied and posts the signed,
 * Midtrans-shaped notification to the real callback route, so the whole flow runs as in production.
 * In any other environment, with gateway keys configured, or reached by a host other than this machine,
 * the path does not exist (404); a Worker with ENVIRONMENT=local and a public APP_URL does not start.
 */
import type { Context } from "hono";
import { rowById } from "../core/db/rows";
import { clientUrl, isLoopbackHost, type RouteEnv } from "../core/env";
import { escapeHtml } from "../core/html";
import { platformCtx } from "../core/http/access";
import { notFound } from "../core/http/problem";
import {
  paymentOrders,
  RETURN_PARAM,
  simulateResult,
  simulation,
  simulatorEnabled,
} from "../platform/payments";
import { htmlPage } from "./layout";

const STYLES = `
    dl { display: grid; grid-template-columns: max-content 1fr; gap: .4rem 1rem; }
    dt { color: #4b5563; }
    dd { margin: 0; font-weight: 600; }
    form { display: inline-block; margin: 1rem .5rem 0 0; }
    button { font-size: 1rem; padding: .6rem 1.4rem; border-radius: .4rem; border: 0; cursor: pointer; }
    .pay { background: #0f766e; color: #fff; }
    .fail { background: #e5e7eb; color: #111827; }
    .note { color: #6b7280; font-size: .9rem; }
    .back { display: inline-block; margin-top: 1.2rem; font-weight: 600; }
`;

const rupiah = (amount: number) => `Rp${amount.toLocaleString("id-ID")}`;

/** The actor is set by nothing here (no guard): the page is its own, local-only, public thing. */
function ctxOf(c: Context<RouteEnv>) {
  c.set("actor", { kind: "public", ip: c.req.header("CF-Connecting-IP") ?? null });
  return platformCtx(c);
}

async function load(c: Context<RouteEnv>) {
  const ctx = ctxOf(c);
  // Also asked of the request itself: a Worker deployed with the local defaults is reached by its
  // public host, and the page that settles invoices must not exist there (issue 31).
  if (!simulatorEnabled(ctx) || !isLoopbackHost(new URL(c.req.url).hostname)) {
    return null;
  }
  const orderId = c.req.param("orderId") ?? "";
  const order = await rowById(ctx.platform, paymentOrders, orderId);
  if (order?.gateway !== "simulator") {
    return null;
  }
  // Where Snap would send the payer when done: only a page of this service's own client (no open redirect).
  const back = c.req.query(RETURN_PARAM);
  const home = `${clientUrl(ctx.env)}/`;
  const returnUrl = back?.startsWith(home) ? back : null;
  return { ctx, order, sim: await simulation(ctx, orderId), returnUrl };
}

function page(
  order: typeof paymentOrders.$inferSelect,
  simStatus: string | undefined,
  returnUrl: string | null,
  message?: { ok: boolean; text: string },
) {
  const open = order.status === "pending" || order.status === "failed";
  const back = returnUrl ? `?${RETURN_PARAM}=${encodeURIComponent(returnUrl)}` : "";
  const action = `/dev/payments/${encodeURIComponent(order.id)}${back}`;
  return htmlPage({
    title: "Simulator pembayaran",
    styles: STYLES,
    body: `<h1>Simulator pembayaran (lokal)</h1>
<p class="note">Pengganti Midtrans untuk pengembangan lokal. Tidak ada uang yang berpindah.</p>
${message ? `<p class="${message.ok ? "ok" : "bad"}" role="status">${escapeHtml(message.text)}</p>` : ""}
<dl>
  <dt>Order</dt><dd>${escapeHtml(order.id)}</dd>
  <dt>Untuk</dt><dd>${escapeHtml(order.description)}</dd>
  <dt>Jumlah</dt><dd>${escapeHtml(rupiah(order.amount))}</dd>
  <dt>Status order</dt><dd>${escapeHtml(order.status)}</dd>
  <dt>Status simulator</dt><dd>${escapeHtml(simStatus ?? "-")}</dd>
</dl>
${
  open
    ? `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="result" value="settlement"><button class="pay" type="submit">Bayar</button></form>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="result" value="deny"><button class="fail" type="submit">Gagal</button></form>`
    : ""
}
${returnUrl ? `<p><a class="back" href="${escapeHtml(returnUrl)}">Kembali ke aplikasi</a></p>` : ""}`,
  });
}

export async function devPaymentPage(c: Context<RouteEnv>): Promise<Response> {
  const found = await load(c);
  if (!found) {
    return notFound(c);
  }
  return c.html(page(found.order, found.sim?.transactionStatus, found.returnUrl));
}

/** `dispatch` hands a request to the API itself, so the notification passes the real callback route. */
export function devPaymentSubmit(dispatch: (request: Request, c: Context<RouteEnv>) => Promise<Response>) {
  return async (c: Context<RouteEnv>): Promise<Response> => {
    const found = await load(c);
    if (!found) {
      return notFound(c);
    }
    const form = await c.req.parseBody();
    const result = form.result === "settlement" ? "settlement" : form.result === "deny" ? "deny" : null;
    if (!result) {
      return c.html(
        page(found.order, found.sim?.transactionStatus, found.returnUrl, {
          ok: false,
          text: "Pilih Bayar atau Gagal.",
        }),
        400,
      );
    }
    const notification = await simulateResult(found.ctx, found.order.id, result);
    if (!notification) {
      return notFound(c);
    }
    const answer = await dispatch(
      new Request(new URL("/api/payments/gateway/callback", c.req.url), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(notification),
      }),
      c,
    );
    const after = await load(c);
    const text =
      answer.ok && result === "settlement"
        ? "Pembayaran berhasil. Notifikasi terkirim dan diterima."
        : answer.ok
          ? "Pembayaran gagal (disimulasikan). Notifikasi terkirim dan diterima."
          : `Notifikasi ditolak oleh API (HTTP ${answer.status}).`;
    return c.html(
      page(after?.order ?? found.order, after?.sim?.transactionStatus, found.returnUrl, {
        ok: answer.ok && result === "settlement",
        text,
      }),
      answer.ok ? 200 : 502,
    );
  };
}
