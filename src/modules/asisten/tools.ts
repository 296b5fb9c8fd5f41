import { eq } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import type { FeatureFlag } from "../../core/flags";
import { listMyComplaints } from "../aspirasi/service";
import { officersOf } from "../identity/service";
import { listPolls } from "../musyawarah/service";
import { listJenis, listMyLetters } from "../surat/service";
import { listMyVisitors } from "../visitor/service";
import { callerDues } from "./dues";
import type { Source } from "./schemas";
import { asistenInfo } from "./tables";

/**
 * The assistant's tools. Each reads through another module's verbs with the request's own context:
 * the tenant is the caller's and the rows are the caller's, because every verb scopes to `ctx.actor`.
 * No tool takes a parameter, so nothing the model writes (an id, a slug, a name) can widen what it sees.
 */
export const TOOL_NAMES = [
  "tagihan_saya",
  "surat_saya",
  "jenis_surat",
  "pengaduan_saya",
  "tamu_saya",
  "musyawarah_aktif",
  "info_rt",
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolResult<T = unknown> {
  /** What the model reads (JSON), and what the built-in mode words itself. */
  data: T;
  sources: Source[];
}

const unavailable = (why: string) => ({ available: false as const, reason: why });
const switchedOff = (ctx: TenantCtx, flag: FeatureFlag) => !ctx.tenant.flags[flag];
const OFF = "Modul ini tidak diaktifkan di RT/RW Anda.";

async function tagihanSaya(ctx: TenantCtx) {
  const bills = await callerDues({ ctx });
  if (!bills) {
    return { data: unavailable("Data iuran belum tersedia di sistem ini."), sources: [] };
  }
  return {
    data: { available: true as const, bills },
    sources: bills.map((b) => ({ kind: "tagihan" as const, id: b.id })),
  };
}

const FINAL_LETTER = new Set(["selesai", "ditolak", "dibatalkan"]);

async function suratSaya(ctx: TenantCtx) {
  if (switchedOff(ctx, "surat")) {
    return { data: unavailable(OFF), sources: [] };
  }
  const { items } = await listMyLetters({ ctx, input: { limit: 20 } });
  const letters = items.map((l) => ({
    id: l.id,
    jenis: l.jenisName,
    keperluan: l.keperluan,
    status: l.status,
    active: !FINAL_LETTER.has(l.status),
    nomorSurat: l.nomorSurat,
    catatanPengurus: l.note,
    pdfTersedia: l.pdfAvailable,
    diajukan: l.createdAt,
  }));
  return {
    data: { available: true as const, letters },
    sources: letters.map((l) => ({ kind: "surat" as const, id: l.id })),
  };
}

async function jenisSurat(ctx: TenantCtx) {
  if (switchedOff(ctx, "surat")) {
    return { data: unavailable(OFF), sources: [] };
  }
  const types = listJenis().items.map((j) => ({
    code: j.code,
    name: j.name,
    description: j.description,
    berlakuHari: j.validityDays,
    isian: j.fields.map((f) => ({ label: f.label, wajib: f.required })),
  }));
  return {
    data: { available: true as const, types },
    sources: types.map((t) => ({ kind: "jenis_surat" as const, id: t.code })),
  };
}

async function pengaduanSaya(ctx: TenantCtx) {
  const { items } = await listMyComplaints({ ctx, input: { limit: 20 } });
  const complaints = items.map((c) => ({
    id: c.id,
    judul: c.title,
    kategori: c.category,
    status: c.status,
    dibuat: c.createdAt,
    diperbarui: c.updatedAt,
  }));
  return {
    data: { available: true as const, complaints },
    sources: complaints.map((c) => ({ kind: "pengaduan" as const, id: c.id })),
  };
}

async function tamuSaya(ctx: TenantCtx) {
  if (switchedOff(ctx, "tamu")) {
    return { data: unavailable(OFF), sources: [] };
  }
  const { items } = await listMyVisitors({ ctx, input: { limit: 20 } });
  // The pass itself (its QR token) stays out: the resident opens it in the app, not in a chat.
  const guests = items.map((v) => ({
    id: v.id,
    nama: v.guestName,
    keperluan: v.purpose,
    waktuKunjungan: v.visitAt,
    status: v.status,
    catatan: v.note,
    sudahMasuk: v.checkedInAt !== null,
    sudahKeluar: v.checkedOutAt !== null,
  }));
  return {
    data: { available: true as const, guests },
    sources: guests.map((g) => ({ kind: "tamu" as const, id: g.id })),
  };
}

async function musyawarahAktif(ctx: TenantCtx) {
  if (switchedOff(ctx, "musyawarah")) {
    return { data: unavailable(OFF), sources: [] };
  }
  const { items } = await listPolls({ ctx, input: { limit: 20, status: "aktif" } });
  const polls = items.map((p) => ({
    id: p.id,
    judul: p.title,
    pilihan: p.options.map((o) => o.label),
    mulai: p.startsAt,
    selesai: p.endsAt,
    sudahMemilih: p.hasVoted ?? false,
  }));
  return {
    data: { available: true as const, polls },
    sources: polls.map((p) => ({ kind: "musyawarah" as const, id: p.id })),
  };
}

export async function readInfo(ctx: TenantCtx) {
  return (await ctx.db.select().from(asistenInfo).where(eq(asistenInfo.id, "rt")).get()) ?? null;
}

async function infoRt(ctx: TenantCtx) {
  const [officers, info] = await Promise.all([officersOf({ ctx }), readInfo(ctx)]);
  return {
    data: {
      available: true as const,
      nama: ctx.tenant.name,
      jenis: ctx.tenant.type,
      pengurus: officers.map((o) => ({ nama: o.name, peran: o.roles.join(", ") })),
      aturan: info?.rules ?? "",
      agenda: info?.agenda ?? "",
    },
    sources: [{ kind: "info_rt" as const, id: ctx.tenant.slug }],
  };
}

export const TOOLS = {
  tagihan_saya: {
    description:
      "Tagihan iuran warga yang sedang bertanya (rumah tangganya): periode, jumlah, sudah/belum dibayar.",
    run: tagihanSaya,
  },
  surat_saya: {
    description:
      "Surat yang diajukan warga yang sedang bertanya, dengan statusnya (aktif atau sudah selesai).",
    run: suratSaya,
  },
  jenis_surat: {
    description: "Ke-12 jenis surat yang bisa diajukan dan isian yang dibutuhkan masing-masing.",
    run: jenisSurat,
  },
  pengaduan_saya: {
    description: "Pengaduan yang dibuat warga yang sedang bertanya, dengan statusnya.",
    run: pengaduanSaya,
  },
  tamu_saya: {
    description: "Pendaftaran tamu milik warga yang sedang bertanya: nama tamu, waktu, status persetujuan.",
    run: tamuSaya,
  },
  musyawarah_aktif: {
    description: "Musyawarah (voting) yang sedang dibuka dan apakah warga yang bertanya sudah memilih.",
    run: musyawarahAktif,
  },
  info_rt: {
    description:
      "Nama RT/RW, pengurus dan perannya, serta aturan, jam layanan dan agenda yang ditulis pengurus.",
    run: infoRt,
  },
} satisfies Record<ToolName, { description: string; run(ctx: TenantCtx): Promise<ToolResult> }>;

/** The tool list in OpenAI's function-calling shape: every function takes an empty object. */
export const TOOL_SPECS = TOOL_NAMES.map((name) => ({
  type: "function" as const,
  function: {
    name,
    description: TOOLS[name].description,
    parameters: { type: "object", properties: {}, additionalProperties: false },
  },
}));

export const isToolName = (name: string): name is ToolName =>
  (TOOL_NAMES as readonly string[]).includes(name);

/** Runs tools for one conversation, each at most once (the model may ask twice). */
export function toolRunner(ctx: TenantCtx) {
  const cache = new Map<ToolName, Promise<ToolResult>>();
  const sources = new Map<string, Source>();
  return {
    async run<N extends ToolName>(name: N): Promise<Awaited<ReturnType<(typeof TOOLS)[N]["run"]>>> {
      let pending = cache.get(name);
      if (!pending) {
        pending = TOOLS[name].run(ctx);
        cache.set(name, pending);
      }
      const result = await pending;
      for (const source of result.sources) {
        sources.set(`${source.kind}:${source.id}`, source);
      }
      return result as Awaited<ReturnType<(typeof TOOLS)[N]["run"]>>;
    },
    sources: () => [...sources.values()],
  };
}
