/**
 * The notification service's delivery log, as the browser journeys' stand-in for the notify Worker keeps
 * it (scripts/lib/workerd.mjs, `outbox` mode): every send becomes a message, and the `/v1/messages`
 * routes the operator's console reads (list, one, retry) answer from it in the service's own shapes
 * (workers/notify/src/schemas.ts). Its fake provider refuses any address containing `gagal` ("failed"),
 * so a journey makes a delivery fail by sending to one; a retry queues it again, as the service does.
 */
export function deliveryLog() {
  /** @type {Record<string, any>[]} */
  const messages = [];
  let seq = 0;
  const json = (body, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const problem = (status, code, detail) =>
    new Response(JSON.stringify({ type: `about:blank#${code}`, title: code, status, code, detail }), {
      status,
      headers: { "content-type": "application/problem+json" },
    });
  const channelOf = (path) =>
    path.startsWith("/v1/emails") ? "email" : path.startsWith("/v1/whatsapp") ? "whatsapp" : "push";

  /** Records a send's recipients; the ids go back to the API as the service's would. */
  function record(path, body) {
    const channel = channelOf(path);
    const to =
      body?.to ?? body?.recipients?.map((r) => r.to ?? r.userId) ?? body?.tokens ?? body?.userIds ?? [];
    const recipients = Array.isArray(to) ? to : [to];
    const ids = [];
    for (const recipient of recipients) {
      seq += 1;
      const now = new Date().toISOString();
      const id = `01STANDIN${String(Date.now()).padStart(13, "0")}${String(seq).padStart(4, "0")}`;
      const failed = String(recipient).includes("gagal");
      const attempt = {
        attempt: 1,
        startedAt: now,
        finishedAt: now,
        outcome: failed ? "failed" : "sent",
        providerStatus: failed ? 422 : 200,
        providerResponse: failed ? `{"message":"${recipient} is not a valid address"}` : null,
        error: failed ? `provider 422: ${recipient} is not a valid address` : null,
      };
      messages.push({
        id,
        channel,
        status: failed ? "failed" : "sent",
        recipient: String(recipient),
        template: body?.template ?? null,
        subject: body?.subject ?? null,
        batchId: null,
        reference: body?.reference ?? null,
        attempts: 1,
        lastError: attempt.error,
        providerMessageId: failed ? null : `prov-${id}`,
        notBefore: null,
        createdAt: now,
        updatedAt: now,
        sentAt: failed ? null : now,
        attemptLog: [attempt],
      });
      ids.push(id);
    }
    return ids;
  }

  const summary = ({ attemptLog: _a, ...rest }) => rest;

  /** The answer to a request of the delivery log's routes, or undefined for any other. */
  function answer(method, url) {
    const path = url.pathname;
    if (method === "GET" && path === "/v1/messages") {
      const q = url.searchParams;
      const limit = Number(q.get("limit") ?? 20);
      const cursor = q.get("cursor");
      const rows = messages
        .filter(
          (m) =>
            (!q.get("status") || m.status === q.get("status")) &&
            (!q.get("channel") || m.channel === q.get("channel")) &&
            (!q.get("tenant") || (m.reference ?? "").startsWith(`${q.get("tenant")}:`)) &&
            (!cursor || m.id < cursor),
        )
        .sort((a, b) => (a.id < b.id ? 1 : -1));
      const page = rows.slice(0, limit);
      return json({
        items: page.map(summary),
        nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
      });
    }
    const one = path.match(/^\/v1\/messages\/([^/]+)(\/retry)?$/);
    if (!one) {
      return undefined;
    }
    const message = messages.find((m) => m.id === decodeURIComponent(one[1]));
    if (!message) {
      return problem(404, "message_not_found", "Message does not exist.");
    }
    if (method === "GET" && !one[2]) {
      return json(message);
    }
    if (method === "POST" && one[2]) {
      if (message.status !== "failed" && message.status !== "dead") {
        return problem(
          409,
          "message_not_dead",
          `Only dead (parked) or failed messages can be retried; this one is ${message.status}.`,
        );
      }
      message.status = "queued";
      message.updatedAt = new Date().toISOString();
      return json({ messageIds: [message.id] }, 202);
    }
    return undefined;
  }

  return { record, answer };
}
