import { describe, expect, it } from "vitest";
import { htmlToText } from "../src/html-to-text";
import { stripQuotedText } from "../src/strip-quotes";

describe("stripQuotedText", () => {
  it.each([
    [
      "Outlook plain text '-----Original Message-----'",
      "Sudah beres.\n\n-----Original Message-----\nFrom: Warga Support <support@warga.id>\nSent: Saturday\n\nHalo",
      "Sudah beres.",
    ],
    [
      "Outlook (Indonesian) underscores then Dari/Dikirim",
      "Oke, saya tunggu.\n\n________________________________\nDari: Warga Support <support@warga.id>\nDikirim: Sabtu, 21 November 2026 10.00\nKepada: Agus\nSubjek: [TKT:x]\n\nHalo",
      "Oke, saya tunggu.",
    ],
    [
      "Outlook mobile: From/Date header block with bold markers",
      "Siap pak.\n\nGet Outlook for Android\n\n*From:* Warga Support <support@warga.id>\n*Date:* Saturday, November 21, 2026\n*To:* Agus\n",
      "Siap pak.",
    ],
    [
      "Yahoo (Indonesian) 'Pada Sabtu, … WIB, … menulis:'",
      "Terima kasih.\n\nPada Sabtu, 21 November 2026 10.00.12 WIB, Warga Support <support@warga.id> menulis:\n\n> Halo",
      "Terima kasih.",
    ],
    [
      "Apple Mail (English) 'On …, at …, … wrote:' then device signature",
      "Noted, thanks!\n\nSent from my iPhone\n\n> On 21 Nov 2026, at 10:00, Warga Support <support@warga.id> wrote:\n> \n> Hi",
      "Noted, thanks!",
    ],
    [
      "Thunderbird (English) 'On 11/21/26 10:00 AM, Name wrote:'",
      "Yes, fixed now.\n\nOn 11/21/26 10:00 AM, Warga Support wrote:\n> Is it fixed?\n",
      "Yes, fixed now.",
    ],
    [
      "a bare 'Name wrote:' followed by quotes",
      "Baik.\n\nWarga Support wrote:\n> Mohon konfirmasi.",
      "Baik.",
    ],
    [
      "a bottom-posted reply under the quote",
      "On Sat, Nov 21, 2026 at 9:00 AM Warga Support <support@warga.id> wrote:\n> Sudah dicoba?\n\nSudah, dan berhasil.",
      "Sudah, dan berhasil.",
    ],
    ["an RFC 3676 signature", "Sip.\n-- \nBudi\nRT 05", "Sip."],
  ])("%s", (_name, input, expected) => {
    expect(stripQuotedText(input)).toBe(expected);
  });

  it("keeps ordinary sentences that only look like markers", () => {
    const text =
      "Paket dikirim dari Bandung kemarin.\nOn Monday the guard said the gate was fixed.\nDari: pengurus RT, bukan RW.\nDikirim dari kantor kelurahan minggu lalu";
    expect(stripQuotedText(text)).toBe(text);
  });

  it("drops the device signature only as the last line", () => {
    expect(stripQuotedText("Dikirim dari iPhone saya\nTapi tolong dicek lagi.")).toBe(
      "Dikirim dari iPhone saya\nTapi tolong dicek lagi.",
    );
    expect(stripQuotedText("Tolong dicek.\n\nDikirim dari iPhone saya")).toBe("Tolong dicek.");
  });

  it("keeps unquoted text under a marker with nothing of the sender's above it", () => {
    // Written under the history the client did not mark: what is below may be the sender's.
    expect(
      stripQuotedText(
        "On Tue, Nov 3, 2026 at 9:12 AM Warga Support <support@warga.id> wrote:\n\nKapan?\n\nRabu.",
      ),
    ).toBe("Kapan?\n\nRabu.");
    // Unless the block names this ticket's thread, or everything below is quoted.
    expect(
      stripQuotedText("From: Warga Support <support@warga.id>\nSent: Selasa\nSubject: RE: [TKT:x]\n\nHalo"),
    ).toBe("");
    expect(stripQuotedText("From: A <a@b.id>\nSent: Selasa\nSubject: Iuran\n\n> Halo")).toBe("");
  });

  it("keeps a forward's body and drops its separator, header block and the sign-off above it", () => {
    expect(
      stripQuotedText(
        "Lihat di bawah.\n\nSent from my iPhone\n\nBegin forwarded message:\n\nFrom: PLN <a@pln.id>\nTo: Budi <b@x.id>,\n  Sari <s@x.id>\nSubject: Padam\n\nPadam jam 9.",
      ),
    ).toBe("Lihat di bawah.\n\nPadam jam 9.");
  });

  it("reads an attribution without a time or an address as the sender's sentence above plain text", () => {
    const text = "Pada 3 November 2026 Pak Lurah menulis:\nsemua warga wajib lapor tamu.";
    expect(stripQuotedText(text)).toBe(text);
    expect(stripQuotedText("Baik.\n\nPada 3 November 2026 Pak Lurah menulis:\n> lapor tamu")).toBe("Baik.");
  });

  it("treats '|' and initials as quotes only in a quoting message, never a table of the sender's", () => {
    expect(stripQuotedText("Sip.\n\nBudi <b@x.id> wrote:\n| pagi?\n\nSore.\n\n| jam?\n\nJam 5.")).toBe(
      "Sip.\n\nSore.\n\nJam 5.",
    );
    const table = "Rekap:\n| Budi | lunas |\n| Sari | belum |";
    expect(stripQuotedText(table)).toBe(table);
    expect(stripQuotedText("BS> naik?\nYa.\nBS> kapan?\nJanuari.")).toBe("Ya.\nJanuari.");
    expect(stripQuotedText("Catatan:\nA> B dulu, baru C.")).toBe("Catatan:\nA> B dulu, baru C.");
  });

  it("drops a phone sign-off glued under the last line, not one followed by a sentence", () => {
    expect(stripQuotedText("Sudah diangkut.\nSkickat från min iPhone")).toBe("Sudah diangkut.");
    expect(stripQuotedText("Sent from my Verizon, Samsung Galaxy smartphone")).toBe("");
    expect(stripQuotedText("Sendt fra min iPhone\nmen billedet kommer senere.")).toBe(
      "Sendt fra min iPhone\nmen billedet kommer senere.",
    );
  });

  it("stays linear on hostile text (long space runs, many attributions and header-like lines)", () => {
    const slowest: number[] = [];
    for (const text of [
      `On ${" ".repeat(999_000)}wrote:`,
      `On 1 2 3 ${"a1 ".repeat(50)}\n`.repeat(6000),
      "On 1 Jan 2020, A wrote:\n> x\n".repeat(35_000),
      `Am 1 ${"schrieb ".repeat(60)}\n`.repeat(2000),
      "Dari: x\n".repeat(120_000),
      "From: a@b.c\nTo: x\nSubject: Fw: y\n\nbody\n".repeat(25_000),
      "Sent from my iPhone\n---------- Forwarded message ---------\n".repeat(16_000),
      "AB> x\ny\n".repeat(120_000),
      `X ${"wrote on 1 ".repeat(45)}\n`.repeat(2000),
      `3 ${"kl. 10:00 skrev ".repeat(30)}\n`.repeat(2000),
    ]) {
      const started = Date.now();
      stripQuotedText(text);
      slowest.push(Date.now() - started);
    }
    // Each 1 MB shape on its own (tens to hundreds of ms on an idle machine): generous for a loaded
    // CI machine, while a quadratic pass takes minutes (the first shape never finished with a
    // regex trim).
    expect(Math.max(...slowest)).toBeLessThan(5000);
  });

  it("returns an empty string when everything is history", () => {
    expect(stripQuotedText("> Halo\n> apa kabar")).toBe("");
  });
});

describe("htmlToText", () => {
  it("renders Gmail's div lines, br blank lines, lists, entities and links", () => {
    const html =
      '<div dir="ltr">Halo&nbsp;admin,<div><br></div><div>Masalahnya:</div><ul><li>lampu &amp; CCTV</li><li>pagar</li></ul>' +
      '<div>Lihat <a href="https://warga.id/x">di sini</a> atau <a href="https://warga.id/y">https://warga.id/y</a>.</div></div>';
    expect(htmlToText(html).text).toBe(
      "Halo admin,\n\nMasalahnya:\n- lampu & CCTV\n- pagar\nLihat di sini <https://warga.id/x> atau https://warga.id/y.",
    );
  });

  it("ignores head, style, script and comments, including Outlook's conditional ones", () => {
    const html =
      "<html><head><title>x</title><style>p{color:red}</style></head><body><!--[if gte mso 9]><xml>junk</xml><![endif]-->" +
      "<script>alert(1)</script><p>Isi</p></body></html>";
    expect(htmlToText(html).text).toBe("Isi");
  });

  it("keeps the answers of an interleaved Thunderbird HTML reply and drops the cite blocks", () => {
    const html =
      '<div class="moz-cite-prefix">On 11/21/26 10:00 AM, Warga Support wrote:<br></div>' +
      '<blockquote type="cite">Sudah bayar?</blockquote><p>Sudah, kemarin.</p>' +
      '<blockquote type="cite">Ada bukti?</blockquote><p>Terlampir.</p>' +
      '<div class="moz-signature">-- <br>Siti</div>';
    expect(htmlToText(html).text).toBe("Sudah, kemarin.\n\nTerlampir.");
  });

  it("survives broken markup: unclosed tags, stray '<', unquoted attributes", () => {
    const html = "<div><b>Penting<div>a < b dan c > d<br>baris <i>dua</div><p class=x>tiga";
    expect(htmlToText(html).text).toBe("Penting\na < b dan c > d\nbaris dua\n\ntiga");
  });

  it("stays linear on hostile markup (unterminated tags, comments and quotes)", () => {
    const started = Date.now();
    for (const html of [
      '<a "" '.repeat(100_000),
      "<a b".repeat(100_000),
      "<!x".repeat(100_000),
      "<p>x".repeat(100_000),
    ]) {
      htmlToText(html);
    }
    // Generous for a loaded CI machine; the quadratic version took minutes on this input.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("reports which inline images the kept part and the history reference", () => {
    const html =
      '<div>Foto: <img src="cid:ii_abc"></div><div class="gmail_quote"><img src="cid:LOGO@warga"></div>';
    const result = htmlToText(html);
    expect([...result.keptCids]).toEqual(["ii_abc"]);
    expect([...result.allCids].sort()).toEqual(["ii_abc", "logo@warga"]);
  });
});
