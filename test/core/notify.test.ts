import { describe, expect, it } from "vitest";
import { notifyFor } from "../../src/core/notifier";
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
