import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { FlowedRewriter, unflowText } from "../src/flowed";
import { readMessage } from "../src/parse";
import { stripQuotedText } from "../src/strip-quotes";

describe("unflowText (RFC 3676)", () => {
  it("joins soft breaks (a line ending in a space) with the next line of the same depth", () => {
    expect(unflowText("Pompa air sudah \ndiperbaiki \nkemarin.\nBaris baru.", false)).toBe(
      "Pompa air sudah diperbaiki kemarin.\nBaris baru.",
    );
    expect(unflowText("> Apakah sudah \n> dibayar?\n", false)).toBe("> Apakah sudah dibayar?\n");
    expect(unflowText(">> dua \n>> tingkat", false)).toBe(">> dua tingkat");
  });

  it("never joins lines of different quote depth (§4.5): the sender's answer stays its own line", () => {
    expect(unflowText("> Hi \nHello", false)).toBe("> Hi \nHello");
    expect(unflowText("> satu \n>> dua \n> tiga", false)).toBe("> satu \n>> dua \n> tiga");
    expect(unflowText("Jawaban \n> kutipan", false)).toBe("Jawaban \n> kutipan");
  });

  it("removes the stuffed space (§4.4), after any quote marks, and only one", () => {
    expect(unflowText(" From rumah\n >bukan kutipan\n  dua spasi", false)).toBe(
      "From rumah\n>bukan kutipan\n dua spasi",
    );
    expect(unflowText(">  diindentasi", false)).toBe(">  diindentasi");
    expect(unflowText(" Satu \n lanjut", false)).toBe("Satu lanjut");
  });

  it("with delsp=yes removes the soft break's space (§4.2); without it keeps the space", () => {
    expect(unflowText("Nomor referen \nsinya 8812.", true)).toBe("Nomor referensinya 8812.");
    expect(unflowText("Nomor referen \nsinya 8812.", false)).toBe("Nomor referen sinya 8812.");
    expect(unflowText("> kuti \n> pan", true)).toBe("> kutipan");
  });

  it('keeps the signature separator "-- " as a line of its own, on both sides (§4.3)', () => {
    expect(unflowText("Salam \n-- \nSiti \nRahmawati", false)).toBe("Salam \n-- \nSiti Rahmawati");
    expect(unflowText("> Salam \n> -- \n> Pengurus", true)).toBe("> Salam\n> -- \n> Pengurus");
  });

  it("keeps hard breaks, empty lines and the final line end", () => {
    expect(unflowText("a\r\n\r\nb\r\n", false)).toBe("a\n\nb\n");
    expect(unflowText(">\n> \n>", false)).toBe(">\n>\n>");
  });
});

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Runs `raw` through a FlowedRewriter in chunks of `size` bytes; the output and the parts seen. */
async function rewrite(raw: string, size = 1 << 20) {
  const bytes = encoder.encode(raw);
  const rewriter = new FlowedRewriter();
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += size) {
        controller.enqueue(bytes.slice(i, i + size));
      }
      controller.close();
    },
  });
  const out = await new Response(input.pipeThrough(rewriter.stream)).arrayBuffer();
  return { text: decoder.decode(out), parts: rewriter.parts };
}

const crlf = (s: string) => s.replace(/\r?\n/g, "\r\n");

const MIXED = crlf(`From: Andi <andi@example.id>
Subject: Re: pompa
Content-Type: multipart/mixed; boundary="b1"

preamble
--b1
Content-Type: text/plain; charset=UTF-8;
 format="flowed"; delsp=yes

Content-Type: text/plain; format=flowed
--b1x
--b1
Content-Type: text/plain; name="catatan; format=flowed"; format=flowed
Content-Disposition: attachment; filename="catatan.txt"

lampiran 
tetap
--b1
Content-Type: message/rfc822

Subject: diteruskan
Content-Type: text/plain; format=flowed

isi 
diteruskan
--b1--
epilogue
`);

describe("FlowedRewriter: only the format parameter of inline text/plain headers changes", () => {
  it("rewrites format=flowed to fixed in headers, never in bodies or attachments, at any chunk size", async () => {
    const expected = MIXED.replace('format="flowed"; delsp=yes', "format=fixed; delsp=yes").replace(
      "Subject: diteruskan\r\nContent-Type: text/plain; format=flowed",
      "Subject: diteruskan\r\nContent-Type: text/plain; format=fixed",
    );
    expect(expected).not.toBe(MIXED);
    for (const size of [1, 2, 3, 7, 64, 1 << 20]) {
      const { text, parts } = await rewrite(MIXED, size);
      expect(text, `chunks of ${size}`).toBe(expected);
      // The first part (delsp=yes) and the nested message's; the attachment is not inline text.
      expect(parts).toEqual([
        { flowed: true, delsp: true },
        { flowed: true, delsp: false },
      ]);
    }
  });

  it("leaves a message without flowed parts byte for byte as it was", async () => {
    const raw = crlf("Subject: x\nContent-Type: text/plain; charset=utf-8\n\n> a \nb\n");
    const { text, parts } = await rewrite(raw, 5);
    expect(text).toBe(raw);
    expect(parts).toEqual([{ flowed: false, delsp: false }]);
  });

  it("rewrites the format parameter itself, not a quoted value that merely contains it", async () => {
    const raw = crlf(
      'Content-Type: text/plain; name="a; format=flowed";\n\tFORMAT = Flowed ; delsp="Yes"\n\nx \ny\n',
    );
    const { text, parts } = await rewrite(raw);
    expect(text).toBe(raw.replace("FORMAT = Flowed", "FORMAT = fixed"));
    expect(parts).toEqual([{ flowed: true, delsp: true }]);
  });

  it("passes on an over-long header section untouched", async () => {
    const raw = `X-Long: ${"a".repeat(300 * 1024)}\r\nContent-Type: text/plain; format=flowed\r\n\r\nbody\r\n`;
    const { text, parts } = await rewrite(raw, 4096);
    expect(text).toBe(raw);
    expect(parts).toEqual([]);
  });
});

describe("readMessage un-flows flowed text by quote depth", () => {
  const reply = crlf(`From: Andi Pratama <andi@example.id>
Subject: Re: pompa air
Content-Type: text/plain; charset=UTF-8; format=flowed

Pada 22/11/26 08.15, Warga Support menulis:
> Apakah pompa air sudah diperbaiki? Kabari jika masih 
> bocor. 
Masih bocor sedikit di sambungan pipa, tolong dicek 
lagi hari ini.
`);
  const stream = (raw: string) => new Blob([encoder.encode(raw)]).stream();

  it("postal-mime alone joins the quote with the answer below it (why flowed.ts exists)", async () => {
    // If this starts failing, postal-mime un-flows by quote depth itself and flowed.ts can go.
    const email = await PostalMime.parse(reply);
    expect(email.text).toContain("> bocor. Masih bocor sedikit");
    expect(stripQuotedText(email.text ?? "")).not.toContain("Masih bocor");
  });

  it("keeps the sender's line apart from the quote and joins its own soft break", async () => {
    const email = await readMessage(stream(reply));
    expect(email.text).toBe(
      "Pada 22/11/26 08.15, Warga Support menulis:\n" +
        "> Apakah pompa air sudah diperbaiki? Kabari jika masih bocor. \n" +
        "Masih bocor sedikit di sambungan pipa, tolong dicek lagi hari ini.\n",
    );
    expect(stripQuotedText(email.text ?? "")).toBe(
      "Masih bocor sedikit di sambungan pipa, tolong dicek lagi hari ini.",
    );
  });

  it("leaves a flowed part next to a fixed one as sent (no rule fits both), the rest of parsing unchanged", async () => {
    const raw = crlf(`From: a@example.id
Subject: dua bagian
Content-Type: multipart/mixed; boundary="zz"

--zz
Content-Type: text/plain; format=flowed

> kutipan 
jawaban
--zz
Content-Type: text/plain

tetap 
apa adanya
--zz
Content-Type: image/png
Content-Disposition: attachment; filename="a.png"
Content-Transfer-Encoding: base64

iVBORw0KGgo=
--zz--
`);
    const email = await readMessage(stream(raw));
    expect(email.text).toContain("> kutipan \njawaban");
    expect(email.text).toContain("tetap \napa adanya");
    expect(email.attachments).toHaveLength(1);
    expect(email.attachments[0]).toMatchObject({ filename: "a.png", mimeType: "image/png" });
    expect(new Uint8Array(email.attachments[0]?.content as ArrayBuffer)).toEqual(
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
  });
});
