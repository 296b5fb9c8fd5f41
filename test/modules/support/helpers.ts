import { exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { platformDb } from "../../../src/core/db/platform";
import { loadConfig } from "../../../src/core/env";
import { newId } from "../../../src/core/ids";
import { supportTickets } from "../../../src/modules/support/platform-tables";
import { replyTokenOf } from "../../../src/modules/support/store";
import { bindings, callJson, createTenant, type Member, type TestTenant } from "../../helpers/harness";

/** First bytes of each kind; the rest does not matter to a check that reads only the magic bytes. */
export const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82,
]);
export const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]);
export const WEBP = new Uint8Array([
  ...new TextEncoder().encode("RIFF"),
  36,
  0,
  0,
  0,
  ...new TextEncoder().encode("WEBPVP8 "),
]);
export const HTML = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");

export function sized(head: Uint8Array, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(head.subarray(0, Math.min(head.length, size)));
  return bytes;
}

/** Posts one file in the multipart field `file`, as a browser form would. */
export async function upload(
  path: string,
  opts: { token?: string; bytes: Uint8Array; name: string; type: string; field?: string },
) {
  const form = new FormData();
  form.set(opts.field ?? "file", new File([opts.bytes], opts.name, { type: opts.type }));
  const headers = new Headers();
  if (opts.token) {
    headers.set("Authorization", `Bearer ${opts.token}`);
  }
  const res = await exports.default.fetch(
    new Request(`http://api.test${path}`, { method: "POST", body: form, headers }),
  );
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: (res.headers.get("Content-Type")?.includes("json") && text ? JSON.parse(text) : text) as Record<
      string,
      unknown
    >,
  };
}

export const pathOf = (url: string) => new URL(url).pathname;

export interface TicketView {
  id: string;
  number: number;
  status: string;
  category: string;
  /** Only in the creator's answer: later reads never carry it. */
  reply_token: string;
  tenant: string | null;
  tenant_slug: string | null;
  attachment_url: string | null;
  notification_pending: boolean;
  notification_failed: boolean;
  source: string;
  messages: {
    id: string;
    author: string;
    message: string;
    lampiran_url: string | null;
    lampiran_urls: string[];
    status_change: string | null;
  }[];
}

export interface Setup {
  tenant: TestTenant;
  admin: Member;
}

export async function tenantWithAdmin(): Promise<Setup> {
  const tenant = await createTenant();
  return { tenant, admin: await tenant.member("admin") };
}

export async function openTicket(admin: Member, body: Record<string, unknown> = {}) {
  const res = await callJson<TicketView>("/api/support-tickets", {
    token: admin.token,
    body: {
      category: "teknis",
      title: "Laporan kas tidak bisa diunduh",
      detail: "Tombol unduh diam saja.",
      ...body,
    },
  });
  if (res.status !== 201) {
    throw new Error(`ticket creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body;
}

/** A ticket written straight to the table, at a chosen creation instant (for the day-edge tests). */
export async function insertTicket(opts: {
  tenant: { id: string; slug: string } | null;
  createdAt: string;
  status?: "baru" | "diproses" | "selesai";
  /** Any text: tickets opened before the closed list of categories kept what was typed. */
  category?: string;
}) {
  const id = newId();
  const { token, hash } = await replyTokenOf({ config: loadConfig(bindings) }, id);
  const db = platformDb(bindings);
  const max = await db
    .select({ n: supportTickets.number })
    .from(supportTickets)
    .orderBy(supportTickets.number)
    .all();
  await db.insert(supportTickets).values({
    id,
    number: (max.at(-1)?.n ?? 100000) + 1,
    tenantId: opts.tenant?.id ?? null,
    tenantSlug: opts.tenant?.slug ?? null,
    source: opts.tenant ? "tenant" : "homepage",
    category: opts.category ?? "teknis",
    title: "Tiket uji",
    detail: "Detail uji",
    status: opts.status ?? "baru",
    replyTokenHash: hash,
    submitterName: "Pengurus Uji",
    writeId: newId(),
    createdAt: opts.createdAt,
    updatedAt: opts.createdAt,
  });
  return { id, token };
}

export async function ticketRow(id: string) {
  return platformDb(bindings).select().from(supportTickets).where(eq(supportTickets.id, id)).get();
}
