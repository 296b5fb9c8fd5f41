import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES, safeFilename, sniffImageType } from "../src/attachments";
import { extractReply, findReplyToken, messageIdentity, robotReason } from "../src/parse";
import apple from "./fixtures/apple-iphone-inline-image.eml?raw";
import gmailEn from "./fixtures/gmail-en.eml?raw";
import gmailId from "./fixtures/gmail-id-attachment.eml?raw";
import outlook from "./fixtures/outlook-desktop.eml?raw";
import owa from "./fixtures/outlook-web-id-html-only.eml?raw";
import { fill, newToken } from "./helpers";

const parse = (raw: string) =>
  PostalMime.parse(fill(raw, { token: newToken(), unique: "u1" }), { attachmentEncoding: "arraybuffer" });

describe("postal-mime 4 output shapes this Worker relies on", () => {
  it("keeps the angle brackets of Message-ID, gives dates as ISO and attachments as ArrayBuffer", async () => {
    const email = await parse(gmailId);
    expect(email.messageId).toBe("<CAM9f2u1Hk2bYp0Cq=n5Ldw@mail.gmail.com>");
    expect(email.date).toBe("2026-11-21T06:05:44.000Z");
    expect(email.attachments[0]).toMatchObject({
      filename: "bukti transfer BCA.jpg",
      mimeType: "image/jpeg",
      disposition: "attachment",
      contentId: "<f_m3q7x1b20>",
    });
    expect(email.attachments[0]?.content).toBeInstanceOf(ArrayBuffer);
  });

  it("marks an inline image referenced from the HTML as related", async () => {
    const email = await parse(apple);
    expect(email.attachments[0]).toMatchObject({ disposition: "inline", related: true });
  });

  it("leaves text undefined for an HTML-only message (so html-to-text.ts does the conversion)", async () => {
    const email = await parse(owa);
    expect(email.text).toBeUndefined();
    expect(email.html).toContain("divRplyFwdMsg");
  });
});

describe("the HTML alternative alone gives the same reply text as the text part", () => {
  it.each([
    ["Gmail", gmailEn],
    ["Gmail (Indonesian)", gmailId],
    ["Outlook for Windows", outlook],
    ["Apple Mail", apple],
  ])("%s", async (_name, raw) => {
    const email = await parse(raw);
    const fromText = extractReply(email);
    const fromHtml = extractReply({ ...email, text: undefined });
    expect(fromText.source).toBe("text");
    expect(fromHtml.source).toBe("html");
    expect(fromHtml.text).toBe(fromText.text);
  });
});

describe("findReplyToken", () => {
  const token = "aZ09_-bY18cX27dW36eV45";
  it.each([
    `Re: [TKT:${token}] Lampu mati`,
    `RE: RE: [TKT:${token}]`,
    `Balas: [TKT:${token}] Iuran`,
    `Fwd: [tkt: ${token} ] ditutup?`,
    `[TKT:${token}]`,
  ])("finds it in %s", (subject) => {
    expect(findReplyToken(subject)).toBe(token);
  });

  it.each([
    "Re: Lampu mati",
    "Re: [TKT:short] x",
    `Re: [TKT:${"a".repeat(65)}] x`,
    `Re: TKT:${token} without brackets`,
    `Re: [TKT:${token.slice(0, 10)}!${token.slice(11)}]`,
  ])("finds none in %s", (subject) => {
    expect(findReplyToken(subject)).toBeNull();
  });

  it("accepts 64-character hex tokens", () => {
    const hex = "0123456789abcdef".repeat(4);
    expect(findReplyToken(`Re: [TKT:${hex}]`)).toBe(hex);
  });
});

describe("robotReason", () => {
  const h = (pairs: Record<string, string>) =>
    Object.entries(pairs).map(([key, value]) => ({ key: key.toLowerCase(), originalKey: key, value }));

  it.each([
    [{ "Auto-Submitted": "auto-replied" }, "auto_submitted"],
    [{ "Auto-Submitted": "auto-generated" }, "auto_submitted"],
    [{ Precedence: "bulk" }, "precedence"],
    [{ Precedence: "junk" }, "precedence"],
    [{ "X-Autoreply": "yes" }, "x_autoreply"],
    [{ "X-Autorespond": "Vacation" }, "x_autoreply"],
    [{ "List-Id": "<warga.lists.example>" }, "mailing_list"],
  ])("%o is %s", (headers, reason) => {
    expect(robotReason(h(headers), "someone@example.id")).toBe(reason);
  });

  it("lets a person's mail through, including an explicit 'Auto-Submitted: no'", () => {
    expect(robotReason(h({ "Auto-Submitted": "no", Precedence: "normal" }), "budi@gmail.com")).toBeNull();
  });

  it("treats a null envelope sender and MAILER-DAEMON as bounces", () => {
    expect(robotReason([], "")).toBe("bounce");
    expect(robotReason([], "MAILER-DAEMON@mx.example.id")).toBe("bounce");
  });
});

describe("messageIdentity", () => {
  it("strips the angle brackets", async () => {
    expect(await messageIdentity(await parse(gmailEn), "x@y")).toBe(
      "CAJx7Kpu1=Zq4tW8vYq+ab3Lw@mail.gmail.com",
    );
  });
});

describe("attachments", () => {
  it("recognises JPEG, PNG, GIF and WebP by their first bytes only", () => {
    const bytes = (...b: number[]) => new Uint8Array(b);
    const ascii = (s: string) => new TextEncoder().encode(s);
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xdb))).toBe("image/jpeg");
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(sniffImageType(ascii("GIF89a...."))).toBe("image/gif");
    expect(sniffImageType(ascii("RIFF\u0000\u0000\u0000\u0000WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(ascii("RIFF\u0000\u0000\u0000\u0000WAVEfmt "))).toBeNull();
    expect(sniffImageType(ascii("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImageType(ascii("%PDF-1.7"))).toBeNull();
    expect(sniffImageType(bytes())).toBeNull();
  });

  it("makes filenames safe for keys and gives them the sniffed type's extension when missing", () => {
    expect(safeFilename("Foto Jalan Rusak (1).JPG", 0, "image/jpeg")).toBe("Foto-Jalan-Rusak-1.JPG");
    expect(safeFilename("denah.pdf", 1, "image/png")).toBe("denah.png");
    expect(safeFilename("../../etc/passwd", 1, "image/png")).toBe("passwd.png");
    expect(safeFilename("C:\\Users\\Budi\\café.png", 2, "image/png")).toBe("cafe.png");
    expect(safeFilename(null, 3, "image/webp")).toBe("image-3.webp");
    expect(safeFilename("...", 4, "image/gif")).toBe("image-4.gif");
    expect(safeFilename(`${"x".repeat(300)}.jpg`, 5, "image/jpeg").length).toBeLessThanOrEqual(100);
  });

  it("uses the spec's 5 MB as binary megabytes", () => {
    expect(MAX_IMAGE_BYTES).toBe(5 * 1024 * 1024);
  });
});
