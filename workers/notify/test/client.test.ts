import { createExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
// The client's own files, not the feature's index: the index also exports the main API's notifier,
// which needs the main Worker's bindings.
import { createNotifyClient } from "../../../src/platform/notify/client";
import { NotifyRequestError, NotifyUnavailable } from "../../../src/platform/notify/errors";
import type { NotifyBinding } from "../../../src/platform/notify/types";
import worker from "../src/index";
import { fakeFetch, gatewayOk } from "./helpers/fakeFetch";
import { KEY, messageRow, testEnv } from "./helpers/worker";

let net: ReturnType<typeof fakeFetch> | undefined;
afterEach(() => net?.restore());

// The real notify Worker, reached the way a service binding reaches it.
const service: NotifyBinding = exports.default;

// The same Worker with WhatsApp unconfigured, so it answers 503 channel_unconfigured.
const serviceWithoutWhatsApp: NotifyBinding = {
  fetch: async (input, init) =>
    worker.fetch(
      new Request(input, init) as Request<unknown, IncomingRequestCfProperties>,
      testEnv({ WHATSAPP_GATEWAY_TOKEN: "" }),
      createExecutionContext(),
    ),
};

const fallback = { url: "https://api.fonnte.com/send", token: "local-gateway-token" };

describe("NotifyClient against the notify Worker", () => {
  const client = createNotifyClient({ binding: service, internalKey: KEY, environment: "production" });

  it("sends a template email and returns the logged message ids", async () => {
    const result = await client.sendEmail({
      template: "PASSWORD_RESET",
      to: "budi@example.com",
      data: { name: "Budi", resetUrl: "https://warga.example/reset?token=abc", expiresInMinutes: 30 },
      idempotencyKey: "client-reset-1",
    });
    expect(result).toMatchObject({ replayed: false, via: "service" });
    expect(result.messageIds).toHaveLength(1);
    expect(await messageRow(result.messageIds[0] ?? "")).toMatchObject({
      template: "PASSWORD_RESET",
      status: "queued",
    });
    const again = await client.sendEmail({
      template: "PASSWORD_RESET",
      to: "budi@example.com",
      data: { name: "Budi", resetUrl: "https://warga.example/reset?token=abc", expiresInMinutes: 30 },
      idempotencyKey: "client-reset-1",
    });
    expect(again).toEqual({ ...result, replayed: true });
  });

  it("sends raw email, WhatsApp and a blast", async () => {
    expect(
      (await client.sendRawEmail({ to: "a@example.com", subject: "x", text: "y" })).messageIds,
    ).toHaveLength(1);
    expect((await client.sendWhatsApp({ to: "081234500001", message: "Halo" })).messageIds).toHaveLength(1);
    const blast = await client.blastWhatsApp({
      message: "Halo {{name}}",
      recipients: [{ to: "081234500002", variables: { name: "A" } }, { to: "081234500003" }],
    });
    expect(blast.messageIds).toHaveLength(2);
    expect(blast.batchId).toEqual(expect.any(String));
  });

  it("registers and unregisters a device; unregistering twice is not an error", async () => {
    const device = await client.registerDevice({
      userId: "u-client",
      tenant: "rt05",
      platform: "android",
      token: "client-tok",
    });
    expect(device).toMatchObject({ token: "client-tok", active: true });
    await client.unregisterDevice("client-tok");
    await expect(client.unregisterDevice("client-tok")).resolves.toBeUndefined();
  });

  it("throws NotifyRequestError with the service's problem code for a refused request", async () => {
    const err = await client
      .sendEmail({ template: "NOPE", to: "a@example.com", data: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotifyRequestError);
    expect(err).toMatchObject({ status: 404, code: "template_not_found" });
    const unauthorized = createNotifyClient({
      binding: service,
      internalKey: "wrong",
      environment: "production",
    });
    await expect(
      unauthorized.sendRawEmail({ to: "a@example.com", subject: "x", text: "y" }),
    ).rejects.toMatchObject({
      status: 401,
      code: "invalid_service_key",
    });
  });

  it("throws NotifyUnavailable (push unconfigured answers 503) and never falls back for email or push", async () => {
    const local = createNotifyClient({
      binding: service,
      internalKey: KEY,
      environment: "local",
      whatsappFallback: fallback,
    });
    const err = await local
      .sendPush({ tokens: ["t"], title: "a", body: "b", data: { screen: "news", id: "1" } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotifyUnavailable);
    expect(err).toMatchObject({
      code: "notification_unavailable",
      status: 503,
      problem: { code: "channel_unconfigured" },
    });
  });
});

describe("local-only WhatsApp fallback", () => {
  it("calls the gateway directly when the binding is absent and the environment is local", async () => {
    net = fakeFetch({ "api.fonnte.com": () => gatewayOk() });
    const client = createNotifyClient({
      binding: undefined,
      internalKey: KEY,
      environment: "local",
      whatsappFallback: fallback,
    });
    const result = await client.sendWhatsApp({ to: "0812-3456-7890", message: "Halo" });
    expect(result.via).toBe("direct");
    expect(result.messageIds).toHaveLength(1);
    const [sent] = net.to("api.fonnte.com");
    expect(sent?.headers.get("authorization")).toBe("local-gateway-token");
    const form = await sent?.request.formData();
    expect(form?.get("target")).toBe("6281234567890");
    expect(form?.get("message")).toBe("Halo");
  });

  it("calls the gateway directly when the service answers 503, one call per blast recipient", async () => {
    net = fakeFetch({ "api.fonnte.com": () => gatewayOk() });
    const client = createNotifyClient({
      binding: serviceWithoutWhatsApp,
      internalKey: KEY,
      environment: "local",
      whatsappFallback: fallback,
    });
    const result = await client.blastWhatsApp({
      message: "Halo {{name}}",
      recipients: [{ to: "081200000011", variables: { name: "Budi" } }, { to: "081200000012" }],
    });
    expect(result.via).toBe("direct");
    const forms = await Promise.all(net.to("api.fonnte.com").map((c) => c.request.formData()));
    expect(forms.map((f) => f.get("message"))).toEqual(["Halo Budi", "Halo "]);
  });

  it.each(["production", "staging", "test"])(
    "never bypasses the service when the environment is %s",
    async (environment) => {
      net = fakeFetch({ "api.fonnte.com": () => gatewayOk() });
      const absent = createNotifyClient({
        binding: undefined,
        internalKey: KEY,
        environment,
        whatsappFallback: fallback,
      });
      const err = await absent.sendWhatsApp({ to: "081234567890", message: "Halo" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotifyUnavailable);
      expect(err).toMatchObject({ code: "notification_unavailable" });
      const unavailable = createNotifyClient({
        binding: serviceWithoutWhatsApp,
        internalKey: KEY,
        environment,
        whatsappFallback: fallback,
      });
      await expect(unavailable.sendWhatsApp({ to: "081234567890", message: "Halo" })).rejects.toBeInstanceOf(
        NotifyUnavailable,
      );
      expect(net.calls).toHaveLength(0);
    },
  );

  it("does not fall back on a refused request, even locally", async () => {
    net = fakeFetch({ "api.fonnte.com": () => gatewayOk() });
    const client = createNotifyClient({
      binding: service,
      internalKey: KEY,
      environment: "local",
      whatsappFallback: fallback,
    });
    await expect(client.sendWhatsApp({ to: "12", message: "Halo" })).rejects.toBeInstanceOf(
      NotifyRequestError,
    );
    expect(net.calls).toHaveLength(0);
  });

  it("reports NotifyUnavailable when local has no fallback configured or the binding throws", async () => {
    const none = createNotifyClient({ binding: undefined, internalKey: KEY, environment: "local" });
    await expect(none.sendWhatsApp({ to: "081234567890", message: "x" })).rejects.toBeInstanceOf(
      NotifyUnavailable,
    );
    const broken = createNotifyClient({
      binding: { fetch: () => Promise.reject(new Error("connection refused")) },
      internalKey: KEY,
      environment: "production",
    });
    await expect(broken.sendRawEmail({ to: "a@example.com", subject: "x", text: "y" })).rejects.toMatchObject(
      {
        name: "NotifyUnavailable",
        code: "notification_unavailable",
      },
    );
  });
});
