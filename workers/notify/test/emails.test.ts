import { afterEach, describe, expect, it } from "vitest";
import { fakeFetch, json, resendOk } from "./helpers/fakeFetch";
import { callJson, deliver, messageRow } from "./helpers/worker";

type Accepted = { messageIds: string[]; replayed: boolean };

let net: ReturnType<typeof fakeFetch> | undefined;
afterEach(() => net?.restore());

const welcome = (to: string | string[], data: Record<string, unknown> = {}) => ({
  template: "WELCOME",
  to,
  data: { name: "Budi", tenantName: "RT 05 / RW 02", loginUrl: "https://warga.example/masuk", ...data },
});

describe("POST /v1/emails/send", () => {
  it("renders the template, logs one queued message per recipient and answers 202 with their ids", async () => {
    const res = await callJson<Accepted>("POST", "/v1/emails/send", {
      body: welcome(["budi@example.com", "sari@example.com"]),
    });
    expect(res.status).toBe(202);
    expect(res.body.replayed).toBe(false);
    expect(res.body.messageIds).toHaveLength(2);
    const row = await messageRow(res.body.messageIds[0] ?? "");
    expect(row).toMatchObject({
      channel: "email",
      status: "queued",
      recipient: "budi@example.com",
      template: "WELCOME",
      subject: "Selamat datang di Warga, Budi!",
      attempts: 0,
    });
    const payload = JSON.parse(String(row?.payload));
    expect(payload.html).toContain("Selamat datang, Budi!");
    expect(payload.text).toContain("https://warga.example/masuk");
  });

  it("HTML-escapes template variables in the queued message", async () => {
    const res = await callJson<Accepted>("POST", "/v1/emails/send", {
      body: welcome("x@example.com", { name: '<b onclick="x()">Budi</b>' }),
    });
    const payload = JSON.parse(String((await messageRow(res.body.messageIds[0] ?? ""))?.payload));
    expect(payload.html).toContain("&lt;b onclick=&quot;x()&quot;&gt;Budi&lt;/b&gt;");
    expect(payload.html).not.toContain("<b onclick");
    expect(payload.text).toContain('<b onclick="x()">Budi</b>');
  });

  it("answers 400 listing missing template variables and 404 for an unknown template", async () => {
    const missing = await callJson<{ code: string; errors: { field: string }[] }>("POST", "/v1/emails/send", {
      body: { template: "PASSWORD_RESET", to: "a@example.com", data: { name: "Budi" } },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("missing_template_variables");
    expect(missing.body.errors.map((e) => e.field)).toEqual(["data.resetUrl", "data.expiresInMinutes"]);
    const unknown = await callJson("POST", "/v1/emails/send", {
      body: { template: "NOPE", to: "a@example.com", data: {} },
    });
    expect(unknown.status).toBe(404);
  });

  it("answers 503 channel_unconfigured when no email provider is configured", async () => {
    const res = await callJson("POST", "/v1/emails/send", {
      body: welcome("a@example.com"),
      env: { EMAIL_HTTP_API_KEY: "" },
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: "channel_unconfigured", status: 503 });
  });
});

describe("POST /v1/emails/raw", () => {
  it("queues a caller-written email", async () => {
    const res = await callJson<Accepted>("POST", "/v1/emails/raw", {
      body: {
        to: "a@example.com",
        subject: "Tes",
        text: "Halo",
        replyTo: "rt05@example.com",
        headers: { "X-Tenant": "rt05" },
      },
    });
    expect(res.status).toBe(202);
    const row = await messageRow(res.body.messageIds[0] ?? "");
    expect(JSON.parse(String(row?.payload))).toEqual({
      to: "a@example.com",
      subject: "Tes",
      text: "Halo",
      replyTo: "rt05@example.com",
      headers: { "X-Tenant": "rt05" },
    });
  });

  it("needs html or text, and refuses headers the service owns or that break lines", async () => {
    expect(
      (await callJson("POST", "/v1/emails/raw", { body: { to: "a@example.com", subject: "x" } })).status,
    ).toBe(400);
    const bcc = await callJson("POST", "/v1/emails/raw", {
      body: { to: "a@example.com", subject: "x", text: "y", headers: { Bcc: "spy@example.com" } },
    });
    expect(bcc.status).toBe(400);
    const crlf = await callJson("POST", "/v1/emails/raw", {
      body: { to: "a@example.com", subject: "x", text: "y", headers: { "X-A": "1\r\nBcc: spy@example.com" } },
    });
    expect(crlf.status).toBe(400);
    const subject = await callJson("POST", "/v1/emails/raw", {
      body: { to: "a@example.com", subject: "a\nBcc: b", text: "y" },
    });
    expect(subject.status).toBe(400);
  });
});

describe("email delivery", () => {
  it("posts to the HTTP email API in Resend's documented shape and marks the message sent", async () => {
    net = fakeFetch({ "api.resend.com": () => resendOk("re-msg-1") });
    const res = await callJson<Accepted>("POST", "/v1/emails/raw", {
      body: {
        to: "a@example.com",
        subject: "Tes",
        html: "<p>Halo</p>",
        text: "Halo",
        replyTo: "rt@example.com",
      },
    });
    const id = res.body.messageIds[0] ?? "";
    const result = await deliver([id]);
    expect(result.explicitAcks).toEqual([`q-${id}-1-0`]);
    expect(result.retryMessages).toEqual([]);

    const [sent] = net.to("api.resend.com");
    expect(sent?.url).toBe("https://api.resend.com/emails");
    expect(sent?.method).toBe("POST");
    expect(sent?.headers.get("authorization")).toBe("Bearer re_test_key");
    expect(sent?.headers.get("content-type")).toBe("application/json");
    expect(sent?.headers.get("idempotency-key")).toBe(id);
    expect(JSON.parse(sent?.text ?? "")).toEqual({
      from: "Warga <noreply@warga.local>",
      to: ["a@example.com"],
      subject: "Tes",
      html: "<p>Halo</p>",
      text: "Halo",
      reply_to: "rt@example.com",
    });
    expect(await messageRow(id)).toMatchObject({
      status: "sent",
      attempts: 1,
      provider_message_id: "re-msg-1",
    });
  });

  it("marks a 422 from the email API as failed (permanent) and does not retry", async () => {
    net = fakeFetch({
      "api.resend.com": () =>
        json({ statusCode: 422, name: "validation_error", message: "Invalid `to` field." }, 422),
    });
    const res = await callJson<Accepted>("POST", "/v1/emails/raw", {
      body: { to: "a@example.com", subject: "x", text: "y" },
    });
    const id = res.body.messageIds[0] ?? "";
    const result = await deliver([id]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({
      status: "failed",
      last_error: "email API answered 422 validation_error",
    });
  });

  it("sends through Cloudflare's send_email binding with a MIME message when that provider is selected", async () => {
    const env = { EMAIL_PROVIDER: "cloudflare" };
    const res = await callJson<Accepted>("POST", "/v1/emails/send", {
      body: welcome("budi@example.com"),
      env,
    });
    expect(res.status).toBe(202);
    const id = res.body.messageIds[0] ?? "";
    const result = await deliver([id], { env });
    expect(result.explicitAcks).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "sent", attempts: 1 });
  });
});
