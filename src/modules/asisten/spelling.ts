/**
 * How a chat turn is read before matching (the built-in mode, builtin.ts): informal short forms ("brp",
 * "gmn", "udh"), the "-nya" suffix ("bayarnya"), and one-letter typos of the topic words ("iuaran",
 * "tagiahn") corrected; whether the turn points back at the one before ("yang itu", "kalau …").
 */
/** Informal spellings and short forms, replaced word by word before matching. */
const SHORT_FORMS: Record<string, string> = {
  brp: "berapa",
  brapa: "berapa",
  brpa: "berapa",
  gmn: "bagaimana",
  gmna: "bagaimana",
  gimana: "bagaimana",
  gmana: "bagaimana",
  bgmn: "bagaimana",
  bgmana: "bagaimana",
  udh: "sudah",
  udah: "sudah",
  sdh: "sudah",
  dah: "sudah",
  blm: "belum",
  blom: "belum",
  yg: "yang",
  sy: "saya",
  sya: "saya",
  aku: "saya",
  aq: "saya",
  gw: "saya",
  gue: "saya",
  gak: "tidak",
  ga: "tidak",
  gk: "tidak",
  nggak: "tidak",
  ngga: "tidak",
  enggak: "tidak",
  engga: "tidak",
  tdk: "tidak",
  klo: "kalau",
  kalo: "kalau",
  klw: "kalau",
  trs: "terus",
  trus: "terus",
  tlg: "tolong",
  bln: "bulan",
  tgl: "tanggal",
  utk: "untuk",
  dmn: "mana",
  kpn: "kapan",
  knp: "kenapa",
  aja: "saja",
  jd: "jadi",
  dgn: "dengan",
  bs: "bisa",
  bsa: "bisa",
  mo: "mau",
  byr: "bayar",
  bayr: "bayar",
  tghn: "tagihan",
  srt: "surat",
  skrg: "sekarang",
  skr: "sekarang",
  ni: "ini",
  tu: "itu",
  bikin: "buat",
  ngurus: "urus",
  mengurus: "urus",
  membayar: "bayar",
  dibayar: "bayar",
  bayaran: "bayar",
  nunggak: "tunggakan",
  menunggak: "tunggakan",
  makasih: "terima kasih",
  makasi: "terima kasih",
  mksh: "terima kasih",
  thx: "thanks",
  tq: "terima kasih",
  hai: "halo",
  hallo: "halo",
  hi: "halo",
  hello: "halo",
  assalamualaikum: "halo",
};

/** The topic words a typo is corrected to: one letter off (two for long words) turns into the word. */
const VOCABULARY = [
  "tagihan",
  "iuran",
  "bayar",
  "pembayaran",
  "tunggakan",
  "syarat",
  "persyaratan",
  "surat",
  "pengantar",
  "domisili",
  "keterangan",
  "pengaduan",
  "keluhan",
  "komplain",
  "laporan",
  "musyawarah",
  "voting",
  "pengunjung",
  "aturan",
  "peraturan",
  "jadwal",
  "kegiatan",
  "pengurus",
  "sekretaris",
  "bendahara",
  "agenda",
  "bagaimana",
  "berapa",
  "januari",
  "februari",
  "maret",
  "april",
  "agustus",
  "september",
  "oktober",
  "november",
  "desember",
];
/** Ordinary words one letter away from a topic word, never "corrected" ("honda" is no "ronda"). */
const KNOWN_WORDS = new Set([
  "sudah",
  "turun",
  "saran",
  "surut",
  "surau",
  "tarif",
  "bayam",
  "karet",
  "lapangan",
  "pengantin",
  "ketenangan",
  "perawatan",
]);

/** Optimal string alignment distance: insertions, deletions, substitutions and swapped neighbours. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

function corrected(word: string): string {
  if (word.length < 5 || KNOWN_WORDS.has(word) || VOCABULARY.includes(word)) {
    return word;
  }
  const allowed = word.length >= 8 ? 2 : 1;
  for (const known of VOCABULARY) {
    if (Math.abs(known.length - word.length) <= allowed && distance(word, known) <= allowed) {
      return known;
    }
  }
  return word;
}

/** One user turn, normalised; `refers` when it points back ("bayarnya", "yang itu", "kalau …"). */
export interface Said {
  text: string;
  refers: boolean;
}

const FOLLOW_UP =
  /^(dan|lalu|terus|kalau|bagaimana dengan|bagaimana kalau|yang|and|what about|how about)\b|\b(itu|tersebut|tadi|that one)\b/;
export function normalise(raw: string): Said {
  let refers = false;
  const words = raw
    .toLowerCase()
    .replace(/apa2/g, "apa saja")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean)
    .map((word) => {
      let w = SHORT_FORMS[word] ?? word;
      if (w.length >= 6 && w.endsWith("nya")) {
        w = w.slice(0, -3);
      }
      const plain = SHORT_FORMS[w] ?? corrected(w);
      // "bayarnya", "syaratnya", "tagihannya": the topic word points back; "programnya" does not.
      refers ||= plain !== word && VOCABULARY.includes(plain) && word.endsWith("nya");
      return plain;
    });
  const text = words.join(" ");
  return { text, refers: refers || FOLLOW_UP.test(text) };
}
