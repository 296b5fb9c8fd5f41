import { describe, expect, it } from "vitest";
import { checkHeader, formatMailbox, parseMailbox } from "../src/providers/email/address";
import { createCloudflareEmailProvider } from "../src/providers/email/cloudflare";
import { createResendProvider } from "../src/providers/email/resend";
import type { FetchFn } from "../src/providers/types";
import { json } from "./helpers/fakeFetch";
import { captureBinding, readMime, readResend } from "./helpers/mail";

const context = () => ({ messageId: "01JTESTMESSAGE", signal: new AbortController().signal });

const base = {
  from: "Warga <noreply@warga.test>",
  to: "budi@example.com",
  subject: "Tiket #1001 diterima",
  text: "Halo",
  html: "<p>Halo</p>",
};

function resendWith() {
  const bodies: unknown[] = [];
  const fetchFn: FetchFn = async (_input, init) => {
    bodies.push(JSON.parse(String(init?.body)));
    return json({ id: "re-1" });
  };
  return {
    provider: createResendProvider({ url: "https://api.resend.com/emails", apiKey: "k" }, fetchFn),
    bodies,
  };
}

describe("the send_email provider builds address headers the way mimetext requires (issue 42)", () => {
  // Before: mimetext threw "The value for the header Reply-To is invalid" for a string Reply-To, and every
  // ticket email to a submitter stayed `retrying`.
  it("sends a message with a Reply-To through the real mimetext", async () => {
    const { binding, raws } = captureBinding();
    const result = await createCloudflareEmailProvider(binding).send({
      ...base,
      replyTo: "balas@support.warga.test",
      ...context(),
    });
    expect(result).toMatchObject({ ok: true });
    const got = await readMime(raws[0] ?? "");
    expect(got.replyTo).toEqual(["balas@support.warga.test"]);
    expect(got.from).toEqual({ address: "noreply@warga.test", name: "Warga" });
    expect(got.to).toEqual(["budi@example.com"]);
  });

  it("takes a named Reply-To, a quoted name with a comma and a non-ASCII name", async () => {
    const { binding, raws } = captureBinding();
    const result = await createCloudflareEmailProvider(binding).send({
      ...base,
      from: '"Pengurus RT 05, RW 02" <rt05@warga.test>',
      to: "Siti Aminah <siti@example.com>",
      replyTo: "Tim Dukungan Warga <balas@support.warga.test>",
      subject: "Pengingat iuran – November",
      ...context(),
    });
    expect(result).toMatchObject({ ok: true });
    const raw = raws[0] ?? "";
    const got = await readMime(raw);
    expect(got.from).toEqual({ address: "rt05@warga.test", name: "Pengurus RT 05, RW 02" });
    expect(got.to).toEqual(["siti@example.com"]);
    expect(got.replyTo).toEqual(["balas@support.warga.test"]);
    expect(got.subject).toBe("Pengingat iuran – November");
    expect(raw).toContain("Message-ID: <01JTESTMESSAGE@warga.test>");
  });

  it("refuses a Reply-To, From or To that would add a header, as a permanent failure, sending nothing", async () => {
    for (const bad of [
      { replyTo: "balas@support.warga.test\r\nBcc: victim@example.com" },
      { to: "budi@example.com\nBcc: victim@example.com" },
      { from: "Warga <noreply@warga.test>\r\nX-Evil: 1" },
      { to: "budi@example.com, sari@example.com" },
      { replyTo: "not an address" },
    ]) {
      const { binding, raws } = captureBinding();
      const result = await createCloudflareEmailProvider(binding).send({ ...base, ...bad, ...context() });
      expect(result, JSON.stringify(bad)).toMatchObject({ ok: false, retryable: false });
      expect(raws).toHaveLength(0);
    }
  });

  it("refuses a custom header whose value holds a line break", async () => {
    const { binding, raws } = captureBinding();
    const result = await createCloudflareEmailProvider(binding).send({
      ...base,
      headers: { "X-Entity-Ref-ID": "a\r\nBcc: victim@example.com" },
      ...context(),
    });
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect(raws).toHaveLength(0);
  });
});

describe("the Resend provider sends the documented shape", () => {
  it("writes from and reply_to as mailboxes and to as an array of addresses", async () => {
    const { provider, bodies } = resendWith();
    const result = await provider.send({
      ...base,
      from: '"Pengurus RT 05, RW 02" <rt05@warga.test>',
      replyTo: "Tim Dukungan <balas@support.warga.test>",
      ...context(),
    });
    expect(result).toMatchObject({ ok: true });
    expect(bodies[0]).toMatchObject({
      from: '"Pengurus RT 05, RW 02" <rt05@warga.test>',
      to: ["budi@example.com"],
      reply_to: "Tim Dukungan <balas@support.warga.test>",
    });
    const got = await readResend(bodies[0]);
    expect(got.from).toEqual({ address: "rt05@warga.test", name: "Pengurus RT 05, RW 02" });
    expect(got.replyTo).toEqual(["balas@support.warga.test"]);
  });

  it("refuses an address or header that would break a header, without calling the API", async () => {
    for (const bad of [
      { replyTo: "balas@support.warga.test\r\nBcc: victim@example.com" },
      { from: "Warga <noreply@warga.test>\nX-Evil: 1" },
      { headers: { "X-Ref": "a\nb" } },
    ]) {
      const { provider, bodies } = resendWith();
      const result = await provider.send({ ...base, ...bad, ...context() });
      expect(result, JSON.stringify(bad)).toMatchObject({ ok: false, retryable: false });
      expect(bodies).toHaveLength(0);
    }
  });
});

describe("parseMailbox", () => {
  it("reads the forms an address header takes", () => {
    expect(parseMailbox("a@b.test")).toEqual({ addr: "a@b.test" });
    expect(parseMailbox(" <a@b.test> ")).toEqual({ addr: "a@b.test" });
    expect(parseMailbox("Budi Santoso <a@b.test>")).toEqual({ addr: "a@b.test", name: "Budi Santoso" });
    expect(parseMailbox('"Budi \\"BS\\" Santoso" <a@b.test>')).toEqual({
      addr: "a@b.test",
      name: 'Budi "BS" Santoso',
    });
  });

  it("refuses line breaks, two addresses and stray angle brackets", () => {
    for (const bad of ["a@b.test\r\n", "a@b.test, c@d.test", "a <b> <c@d.test>", "<a@b.test", "", "a@b"]) {
      expect(() => parseMailbox(bad), bad).toThrow();
    }
  });

  it("quotes a display name only when it must", () => {
    expect(formatMailbox({ addr: "a@b.test", name: "Warga" })).toBe("Warga <a@b.test>");
    expect(formatMailbox({ addr: "a@b.test", name: 'RT 05, "RW" 02' })).toBe(
      '"RT 05, \\"RW\\" 02" <a@b.test>',
    );
    expect(parseMailbox(formatMailbox({ addr: "a@b.test", name: 'RT 05, "RW" 02' }))).toEqual({
      addr: "a@b.test",
      name: 'RT 05, "RW" 02',
    });
  });

  it("checkHeader refuses a value that leaves its line", () => {
    expect(() => checkHeader("X-Ref", "a\r\nb")).toThrow();
    expect(() => checkHeader("X Ref", "a")).toThrow();
    expect(() => checkHeader("X-Ref", "a\tb")).not.toThrow();
  });
});
