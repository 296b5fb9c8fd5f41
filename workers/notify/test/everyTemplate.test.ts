import { afterEach, describe, expect, it } from "vitest";
import { defaultTemplates } from "../src/templates/defaults";
import { fakeFetch } from "./helpers/fakeFetch";
import {
  captureBinding,
  type Delivered,
  EMAIL_PROVIDERS,
  everyProviderListed,
  readMime,
  readResend,
  resendCapture,
} from "./helpers/mail";
import { callJson, deliver, type EnvOverrides, messageRow } from "./helpers/worker";

type Accepted = { messageIds: string[] };
type Listed = { items: { code: string; locale: string }[] };
type Template = { sampleData: Record<string, unknown> };

const FROM = "Warga <noreply@warga.local>";
const REPLY_TO = "balas@support.warga.test";

let net: ReturnType<typeof fakeFetch> | undefined;
afterEach(() => net?.restore());

/** Sends one message through the named provider with only its binding or the network faked. */
async function sendThrough(provider: (typeof EMAIL_PROVIDERS)[number], messageId: string) {
  if (provider === "cloudflare") {
    const { binding, raws } = captureBinding();
    const env: EnvOverrides = { EMAIL_PROVIDER: "cloudflare", EMAIL: binding, EMAIL_FROM: FROM };
    await deliver([messageId], { env });
    return raws[0] === undefined ? undefined : readMime(raws[0]);
  }
  const resend = resendCapture();
  net = fakeFetch({ "api.resend.com": resend.handler });
  await deliver([messageId], { env: { EMAIL_PROVIDER: "http", EMAIL_FROM: FROM } });
  net.restore();
  return resend.bodies[0] === undefined ? undefined : readResend(resend.bodies[0]);
}

describe("every template through every email provider", () => {
  it("lists every provider the configuration knows", () => {
    expect(everyProviderListed).toBe(true);
  });

  it("the template registry holds every seeded template", async () => {
    const listed = await callJson<Listed>("GET", "/v1/templates");
    const codes = new Set(listed.body.items.map((t) => t.code));
    for (const t of defaultTemplates) {
      expect(codes).toContain(t.code);
    }
  });

  // The registry is read at run time, so a template added later (or a new locale of one) is covered too.
  for (const provider of EMAIL_PROVIDERS) {
    it(`${provider}: each template in each locale arrives with its From, To, Reply-To, subject, text and html`, async () => {
      const listed = await callJson<Listed>("GET", "/v1/templates");
      expect(listed.body.items.length).toBeGreaterThanOrEqual(defaultTemplates.length);
      for (const { code, locale } of listed.body.items) {
        const template = await callJson<Template>("GET", `/v1/templates/${code}?locale=${locale}`);
        const to = `warga.${code.toLowerCase().replaceAll("_", "-")}@example.com`;
        const sent = await callJson<Accepted>("POST", "/v1/emails/send", {
          body: { template: code, locale, to, data: template.body.sampleData, replyTo: REPLY_TO },
          env: provider === "cloudflare" ? { EMAIL_PROVIDER: "cloudflare" } : {},
        });
        expect(sent.status, `${code}/${locale} accepted`).toBe(202);
        const id = sent.body.messageIds[0] ?? "";
        const queued = await messageRow(id);
        const payload = JSON.parse(String(queued?.payload)) as {
          subject: string;
          text: string;
          html: string;
        };
        const got: Delivered | undefined = await sendThrough(provider, id);
        expect(await messageRow(id), `${code}/${locale} via ${provider}`).toMatchObject({ status: "sent" });
        expect(got, `${code}/${locale} via ${provider}`).toBeDefined();
        expect(got?.from).toEqual({ address: "noreply@warga.local", name: "Warga" });
        expect(got?.to).toEqual([to]);
        expect(got?.replyTo).toEqual([REPLY_TO]);
        expect(got?.subject).toBe(payload.subject);
        expect(got?.subject).not.toMatch(/\{\{/);
        expect(got?.text?.trim()).toBe(payload.text.trim());
        expect(got?.html).toContain("</html>");
        expect(got?.html?.trim()).toBe(payload.html.trim());
      }
    });
  }
});
