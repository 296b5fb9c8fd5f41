import { describe, expect, it, vi } from "vitest";
import { notifyFor } from "../../src/platform/notify/notifier";
import { bindings } from "../helpers/harness";
import { queuedMessages } from "../helpers/notify";

describe("notification client over the service binding", () => {
  it("queues a templated email in the real notification Worker", async () => {
    const result = await notifyFor(bindings).sendEmail({
      template: "WELCOME",
      to: "warga.baru@warga.test",
      data: { name: "Budi", loginUrl: "http://api.test/login", tenantName: "RT 01" },
    });
    expect(result.via).toBe("service");
    expect(result.messageIds).toHaveLength(1);
    const [message] = await queuedMessages({ recipient: "warga.baru@warga.test" });
    expect(message).toMatchObject({
      id: result.messageIds[0],
      channel: "email",
      template: "WELCOME",
      status: "queued",
    });
  });
});

describe("local-only WhatsApp fallback", () => {
  const down = { fetch: async () => new Response(null, { status: 503 }) };
  const gateway = {
    WHATSAPP_GATEWAY_URL: "https://api.fonnte.com/send",
    WHATSAPP_GATEWAY_TOKEN: "fonnte-token",
  };

  it("calls the gateway directly when the service is down and ENVIRONMENT is local", async () => {
    const sent: Request[] = [];
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      sent.push(new Request(input, init));
      return Response.json({
        status: true,
        detail: "success! message in queue",
        id: ["80367170"],
        process: "pending",
        target: ["6281234567890"],
      });
    });
    try {
      const env = {
        ...bindings,
        ...gateway,
        ENVIRONMENT: "local",
        NOTIFY: down,
      } as unknown as typeof bindings;
      const result = await notifyFor(env).sendWhatsApp({ to: "081234567890", message: "Rapat RT malam ini" });
      expect(result.via).toBe("direct");
      expect(sent).toHaveLength(1);
      expect(sent[0]?.url).toBe("https://api.fonnte.com/send");
      expect(sent[0]?.headers.get("Authorization")).toBe("fonnte-token");
      const form = await sent[0]?.formData();
      expect(form?.get("target")).toBe("6281234567890");
      expect(form?.get("message")).toBe("Rapat RT malam ini");
    } finally {
      spy.mockRestore();
    }
  });

  it("never bypasses the service outside local: the caller gets the error", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    try {
      const env = {
        ...bindings,
        ...gateway,
        ENVIRONMENT: "production",
        NOTIFY: down,
      } as unknown as typeof bindings;
      await expect(notifyFor(env).sendWhatsApp({ to: "081234567890", message: "x" })).rejects.toMatchObject({
        code: "notification_unavailable",
      });
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
