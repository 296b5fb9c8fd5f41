import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES, sha256Hex, storeImages } from "../src/attachments";
import { REPLIES_URL } from "../src/forward";
import { REJECT_EMPTY, REJECT_NO_TOKEN } from "../src/handler";
import { TEST_INTERNAL_KEY } from "./fake-api-shared";
import appleInline from "./fixtures/apple-iphone-inline-image.eml?raw";
import autoReplyOutlook from "./fixtures/auto-reply-outlook.eml?raw";
import autoReplyVacation from "./fixtures/auto-reply-vacation.eml?raw";
import gmailEn from "./fixtures/gmail-en.eml?raw";
import gmailIdAttachment from "./fixtures/gmail-id-attachment.eml?raw";
import noMessageId from "./fixtures/no-message-id.eml?raw";
import noToken from "./fixtures/no-token.eml?raw";
import outlookDesktop from "./fixtures/outlook-desktop.eml?raw";
import outlookWebHtmlOnly from "./fixtures/outlook-web-id-html-only.eml?raw";
import thunderbird from "./fixtures/thunderbird-id-flowed.eml?raw";
import thunderbirdBelowQuote from "./fixtures/thunderbird-id-flowed-below-quote.eml?raw";
import { deliver, fill, listStored, newToken, registerTicket, sentRequests, unique } from "./helpers";

type SentBody = {
  replyToken: string;
  messageId: string;
  from: { address: string; name?: string };
  subject: string;
  text: string;
  attachments: { key: string; filename: string; contentType: string; size: number }[];
  receivedAt: string;
};

/** Delivers a fixture for a freshly registered ticket and returns the one request the API got. */
async function replyWith(
  fixture: string,
  from: string,
): Promise<{ body: SentBody; token: string; id: string }> {
  const token = newToken();
  await registerTicket(token);
  const id = unique();
  const result = await deliver(fill(fixture, { token, unique: id }), { from });
  expect(result.rejected).toBeNull();
  const requests = await sentRequests(token);
  expect(requests).toHaveLength(1);
  return { body: requests[0]?.body as SentBody, token, id };
}

describe("replies from each client reach the main API with only the new text", () => {
  it("Gmail (English): wrapped 'On … wrote:' attribution and '>' history are cut", async () => {
    const { body, token, id } = await replyWith(gmailEn, "budi.santoso@gmail.com");
    const [request] = await sentRequests(token);
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe(REPLIES_URL);
    expect(request?.contentType).toBe("application/json");
    expect(request?.internalKey).toBe(TEST_INTERNAL_KEY);
    expect(body).toEqual({
      replyToken: token,
      messageId: `CAJx7Kp${id}=Zq4tW8vYq+ab3Lw@mail.gmail.com`,
      from: { address: "budi.santoso@gmail.com", name: "Budi Santoso" },
      subject: `Re: [TKT:${token}] Lampu jalan Blok C mati`,
      text: "Terima kasih, lampu di Blok C sudah menyala lagi sejak tadi pagi.\nMohon tiketnya ditutup saja.\n\nSalam,\nBudi",
      attachments: [],
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it("Gmail (Indonesian): 'Pada tanggal … menulis:', encoded 'Balas:' subject, photo stored in R2", async () => {
    const { body, token, id } = await replyWith(gmailIdAttachment, "rina.wulandari@gmail.com");
    expect(body.subject).toBe(`Balas: [TKT:${token}] Iuran November sudah saya transfer`);
    expect(body.text).toBe(
      "Iuran bulan November sudah saya transfer tadi siang ke rekening bendahara.\n" +
        "Bukti transfernya saya lampirkan.\n\nTerima kasih,\nRina",
    );
    const messageId = `CAM9f2${id}Hk2bYp0Cq=n5Ldw@mail.gmail.com`;
    const key = `support/inbound/${await sha256Hex(messageId)}/0-bukti-transfer-BCA.jpg`;
    expect(body.attachments).toEqual([
      { key, filename: "bukti-transfer-BCA.jpg", contentType: "image/jpeg", size: 922 },
    ]);
    const object = await env.FILES.get(key);
    expect(object?.httpMetadata?.contentType).toBe("image/jpeg");
    expect(object?.customMetadata).toEqual({ messageId, replyToken: token });
    expect(new Uint8Array((await object?.arrayBuffer()) ?? new ArrayBuffer(0)).subarray(0, 3)).toEqual(
      new Uint8Array([0xff, 0xd8, 0xff]),
    );
  });

  it("Outlook for Windows: From/Sent header block cut, the quoted logo image is not stored", async () => {
    const { body } = await replyWith(outlookDesktop, "hendra@rt03-sukamaju.id");
    expect(body.text).toBe(
      "Selamat siang,\n\nPortal masih menampilkan tagihan ganda untuk bulan Oktober, padahal sudah dibayar.\n" +
        "Mohon dicek kembali.\n\nRegards,\nHendra Wijaya\nBendahara RT 03",
    );
    expect(body.attachments).toEqual([]);
  });

  it("Outlook on the web (Indonesian), HTML only: converted to text, 'Dari:/Dikirim:' history cut", async () => {
    const { body } = await replyWith(outlookWebHtmlOnly, "agus.pratama@outlook.co.id");
    expect(body.text).toBe(
      "Baik, terima kasih atas informasinya.\n" +
        "Untuk sementara portal bisa diakses lagi & data warga sudah muncul semua.\n\n" +
        "Detail error sebelumnya ada di halaman log <https://rw07.warga.id/admin/log>.\n\n" +
        "Salam,\nAgus – Sekretaris RW 07",
    );
  });

  it("Apple Mail on iPhone: quoted attribution and device signature dropped, inline photo stored", async () => {
    const { body } = await replyWith(appleInline, "sari.lestari@icloud.com");
    expect(body.text).toBe(
      "Ini fotonya pak, lubangnya makin besar setelah hujan semalam.\nSudah dua motor jatuh di situ.",
    );
    expect(body.attachments).toHaveLength(1);
    expect(body.attachments[0]).toMatchObject({
      filename: "IMG_0417.jpeg",
      contentType: "image/jpeg",
      size: 2422,
    });
    expect(await env.FILES.head(body.attachments[0]?.key ?? "")).not.toBeNull();
  });

  it("Thunderbird (flowed, interleaved): answers between quotes kept, signature cut, only real images stored", async () => {
    const { body } = await replyWith(thunderbird, "siti@rumahsiti.id");
    expect(body.text).toBe(
      "Melalui transfer ke rekening bendahara, tanggal 3 November. Nomor referensinya 8812-3345.\n\n" +
        "Sudah saya lampirkan, beserta denah lokasi rumah.",
    );
    // The PDF is not an image and "foto-rumah.jpg" is text; "denah lokasi" is a PNG sent as octet-stream.
    expect(body.attachments).toEqual([
      expect.objectContaining({ filename: "denah-lokasi.png", contentType: "image/png", size: 70 }),
    ]);
    expect(body.attachments[0]?.key).toMatch(/\/1-denah-lokasi\.png$/);
  });

  it("Thunderbird (flowed): an answer right below a quoted line ending in a space is kept, not joined into the quote", async () => {
    // postal-mime 4 alone joins "> masih bocor. " with the answer below it, and the joined line
    // is then cut as a quote, leaving nothing (test/flowed.test.ts pins that); RFC 3676 never joins
    // across quote depths. Plain-text only, as Thunderbird sends it when composing in plain text.
    const { body } = await replyWith(thunderbirdBelowQuote, "andi@pratama.web.id");
    expect(body.text).toBe(
      "Masih bocor sedikit di sambungan pipa dekat tandon, tolong dicek lagi hari ini.\n" +
        "Baik, saya tunggu di pos.",
    );
    expect(body.attachments).toEqual([]);
  });
});

describe("robots are dropped silently", () => {
  it.each([
    ["Exchange out-of-office (Auto-Submitted: auto-replied)", autoReplyOutlook],
    ["vacation responder (X-Autoreply, Precedence: bulk)", autoReplyVacation],
  ])("%s", async (_name, fixture) => {
    const token = newToken();
    await registerTicket(token);
    const before = await listStored();
    const result = await deliver(fill(fixture, { token }), { from: "robot@example.id" });
    expect(result.rejected).toBeNull();
    expect(await sentRequests(token)).toEqual([]);
    expect(await listStored()).toEqual(before);
  });

  it("a bounce (empty envelope sender) is neither forwarded nor rejected", async () => {
    const token = newToken();
    await registerTicket(token);
    const result = await deliver(fill(gmailEn, { token }), { from: "" });
    expect(result.rejected).toBeNull();
    expect(await sentRequests(token)).toEqual([]);
  });
});

describe("the same Message-ID is appended once", () => {
  it("a redelivery stops before storing or calling the API again", async () => {
    const token = newToken();
    await registerTicket(token);
    const raw = fill(gmailIdAttachment, { token, unique: unique() });
    expect((await deliver(raw, { from: "rina.wulandari@gmail.com" })).rejected).toBeNull();
    expect((await deliver(raw, { from: "rina.wulandari@gmail.com" })).rejected).toBeNull();
    expect(await sentRequests(token)).toHaveLength(1);
  });

  it("when only the main API knows it (200 duplicate), it is success and the images stay", async () => {
    const token = newToken();
    await registerTicket(token);
    const id = unique();
    const raw = fill(gmailIdAttachment, { token, unique: id });
    await deliver(raw, { from: "rina.wulandari@gmail.com" });
    const hash = await sha256Hex(`CAM9f2${id}Hk2bYp0Cq=n5Ldw@mail.gmail.com`);
    await env.FILES.delete(`support/inbound/${hash}/delivered.json`);

    const again = await deliver(raw, { from: "rina.wulandari@gmail.com" });
    expect(again.rejected).toBeNull();
    expect(await sentRequests(token)).toHaveLength(2);
    expect(await listStored(`support/inbound/${hash}/`)).toEqual([
      `support/inbound/${hash}/0-bukti-transfer-BCA.jpg`,
      `support/inbound/${hash}/delivered.json`,
    ]);
  });

  it("a message without Message-ID gets a stable id derived from its content", async () => {
    const token = newToken();
    await registerTicket(token);
    const raw = fill(noMessageId, { token });
    await deliver(raw, { from: "rt09.cempaka@yahoo.co.id" });
    await deliver(raw, { from: "rt09.cempaka@yahoo.co.id" });
    const requests = await sentRequests(token);
    expect(requests).toHaveLength(1);
    const body = requests[0]?.body as SentBody;
    expect(body.messageId).toMatch(/^[0-9a-f]{64}@derived\.ticket-mail\.warga\.invalid$/);
    expect(body.text).toBe("Sudah bisa login lagi, terima kasih.");
    expect(body.from).toEqual({ address: "rt09.cempaka@yahoo.co.id", name: "Pak RT 09" });
  });
});

describe("a message that names no known ticket is rejected and leaves nothing behind", () => {
  it("wrong token: the API's 404 becomes a reject, the stored photo is deleted", async () => {
    const token = newToken();
    const before = await listStored();
    const result = await deliver(fill(gmailIdAttachment, { token }), { from: "rina.wulandari@gmail.com" });
    expect(result.rejected).toBe("Unknown ticket reference in the subject");
    const [request] = await sentRequests(token);
    const sent = request?.body as SentBody | undefined;
    expect(sent?.attachments).toHaveLength(1);
    expect(await listStored()).toEqual(before);
  });

  it("a reply with nothing new (only the quoted history) is rejected, not appended", async () => {
    const token = newToken();
    await registerTicket(token);
    const raw = fill(gmailEn, { token }).replace(
      "Terima kasih, lampu di Blok C sudah menyala lagi sejak tadi pagi.\r\nMohon tiketnya ditutup saja.\r\n\r\nSalam,\r\nBudi\r\n",
      "",
    );
    const result = await deliver(raw.replace(/<div dir=3D"ltr">Terima[\s\S]*?<\/div><\/div><br>/, ""), {
      from: "budi.santoso@gmail.com",
    });
    expect(result.rejected).toBe(REJECT_EMPTY);
    expect(await sentRequests(token)).toEqual([]);
  });

  it("no token: rejected before anything is stored or sent", async () => {
    const before = await listStored();
    const result = await deliver(fill(noToken, { token: "" }), { from: "dewi.anggraini@gmail.com" });
    expect(result.rejected).toBe(REJECT_NO_TOKEN);
    expect(await listStored()).toEqual(before);
  });
});

describe("when the main API cannot take the reply, the MTA must retry", () => {
  it.each([503, 500, 429, "network" as const])(
    "API failure %s: throws and removes stored images",
    async (failWith) => {
      const token = newToken();
      await registerTicket(token, failWith);
      const before = await listStored();
      await expect(
        deliver(fill(gmailIdAttachment, { token }), { from: "rina.wulandari@gmail.com" }),
      ).rejects.toThrow();
      expect(await listStored()).toEqual(before);
    },
  );

  it("a wrong internal key (401) throws instead of bouncing the sender's mail", async () => {
    const token = newToken();
    await registerTicket(token);
    await expect(
      deliver(
        fill(gmailEn, { token }),
        { from: "budi.santoso@gmail.com" },
        { INTERNAL_API_KEY: "wrong-key-wrong-key" },
      ),
    ).rejects.toThrow(/401/);
    expect((await sentRequests(token))[0]?.internalKey).toBe("wrong-key-wrong-key");
  });

  it("a missing internal key fails loudly before reading the message", async () => {
    await expect(
      deliver(
        fill(gmailEn, { token: newToken() }),
        { from: "budi.santoso@gmail.com" },
        { INTERNAL_API_KEY: "" },
      ),
    ).rejects.toThrow(/INTERNAL_API_KEY/);
  });
});

describe("fetch", () => {
  it("answers health checks and 404 otherwise", async () => {
    const health = await exports.default.fetch("https://ticket-mail.internal/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", service: "warga-ticket-mail" });
    const other = await exports.default.fetch("https://ticket-mail.internal/");
    expect(other.status).toBe(404);
    expect(other.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("image size limit", () => {
  it("skips an image over 5 MB without rejecting, and still stores the others", async () => {
    const token = newToken();
    await registerTicket(token);
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const small = new Uint8Array(big.subarray(0, 64));
    const raw = mixedMessage(token, "Dua foto terlampir.", [
      { name: "panorama.png", bytes: big },
      { name: "detail.png", bytes: small },
    ]);
    const result = await deliver(raw, { from: "budi.santoso@gmail.com" });
    expect(result.rejected).toBeNull();
    const [request] = await sentRequests(token);
    const body = request?.body as SentBody;
    expect(body.text).toBe("Dua foto terlampir.");
    expect(body.attachments.map((a) => [a.filename, a.size])).toEqual([["detail.png", 64]]);
  });

  it("stores an image of exactly 5 MB", async () => {
    const bytes = new Uint8Array(MAX_IMAGE_BYTES);
    bytes.set([0xff, 0xd8, 0xff, 0xe0]);
    const { stored, skipped } = await storeImages({
      bucket: env.FILES,
      attachments: [
        { filename: "x.jpg", mimeType: "image/jpeg", disposition: "attachment", content: bytes.buffer },
      ],
      messageId: `limit-${unique()}@example.id`,
      replyToken: newToken(),
      selection: { keptCids: new Set(), allCids: new Set() },
    });
    expect(skipped).toEqual([]);
    expect(stored[0]?.size).toBe(MAX_IMAGE_BYTES);
  });
});

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return (btoa(binary).match(/.{1,76}/g) ?? []).join("\r\n");
}

/** A plain multipart/mixed reply as most webmail clients build it for attached photos. */
function mixedMessage(token: string, text: string, files: { name: string; bytes: Uint8Array }[]): Uint8Array {
  const boundary = "----=_Part_48213_1193350042.1795236137000";
  const parts = files.map(
    (f) =>
      `--${boundary}\r\nContent-Type: image/png; name="${f.name}"\r\nContent-Transfer-Encoding: base64\r\n` +
      `Content-Disposition: attachment; filename="${f.name}"\r\n\r\n${base64(f.bytes)}\r\n`,
  );
  const raw =
    `From: Budi Santoso <budi.santoso@gmail.com>\r\nTo: balas@support.warga.id\r\n` +
    `Subject: Re: [TKT:${token}] Foto\r\nDate: Sat, 21 Nov 2026 11:00:00 +0700\r\n` +
    `Message-ID: <${unique()}@mail.example.id>\r\nMIME-Version: 1.0\r\n` +
    `Content-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n` +
    `--${boundary}\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n${text}\r\n` +
    `${parts.join("")}--${boundary}--\r\n`;
  return new TextEncoder().encode(raw);
}
