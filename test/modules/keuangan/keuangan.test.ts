import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jobs } from "../../../src/app";
import { memberships, users } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { openCursor } from "../../../src/core/http/cursor";
import { CRON, runScheduled } from "../../../src/core/jobs";
import { systemPlatformCtx } from "../../../src/core/tenancy/system";
import { endMoveOutGrace } from "../../../src/modules/identity/service";
import { arrears } from "../../../src/modules/keuangan/iuran/arrears";
import { withAmount } from "../../../src/modules/keuangan/iuran/jenis";
import { sendReminders } from "../../../src/modules/keuangan/iuran/pengingat";
import { correctCashEntry, createCashEntry, listCash } from "../../../src/modules/keuangan/kas/entries";
import { reminderSendAfter } from "../../../src/modules/keuangan/periods";
import { pdfRendering } from "../../../src/platform/pdf";
import { readWorkbook, XLSX_TYPE } from "../../../src/platform/spreadsheets";
import { ctxAt } from "../../helpers/clock";
import { memberCtx } from "../../helpers/contexts";
import {
  bindings,
  call,
  callJson,
  expectProblem,
  expectRefusedMove,
  login,
  type Member,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { fakeGateways, midtransNotification, postCallback } from "../billing/gateway";
import { CLEAN_PNG } from "../galeri-pasar/images";
import { postFile, type StoredFile } from "../galeri-pasar/post";
import { household, nik } from "../surat/helpers";
import { type Community, community } from "./helpers";

interface Bill {
  id: string;
  period: string;
  basis: "unit" | "kk";
  unitId: string;
  familyId: string | null;
  movedOutFamilyId?: string | null;
  amount: number;
  paidAmount: number;
  outstanding: number;
  status: string;
  typeName: string;
}
interface Entry {
  id: string;
  kind: string;
  category: string;
  amount: number;
  source: string;
  sourceId: string | null;
  reversesId: string | null;
  balance: number;
}
interface CashBook {
  openingBalance: number;
  closingBalance: number;
  items: Entry[];
  nextCursor: string | null;
}

async function addUnit(c: Community, number: string) {
  const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
    token: c.sek.token,
    body: { block: "F", number },
  });
  expect(unit.status).toBe(201);
  return unit.body.id;
}

async function duesType(c: Community, body: Record<string, unknown> = {}) {
  const res = await callJson<{ id: string; amount: number }>("/api/iuran/jenis", {
    token: c.bendahara.token,
    body: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01", ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const generate = (c: Community, period: string) =>
  callJson<{ created: number; existing: number }>("/api/iuran/tagihan/generate", {
    token: c.bendahara.token,
    body: { period },
  });

async function billsOf(c: Community, query: string) {
  const res = await callJson<{ items: Bill[] }>(`/api/iuran/tagihan?limit=100&${query}`, {
    token: c.sek.token,
  });
  expect(res.status).toBe(200);
  return res.body.items;
}

const pay = (c: Community, billId: string, amount: number, token = c.bendahara.token) =>
  callJson<{ id: string; cashEntryId: string; bill: Bill }>(`/api/iuran/tagihan/${billId}/pembayaran`, {
    token,
    body: { amount, method: "tunai", paidAt: "2026-03-05T03:00:00.000Z" },
  });

const cash = async (c: Community, query = "") => {
  const res = await callJson<CashBook>(`/api/kas?limit=100&${query}`, { token: c.sek.token });
  expect(res.status).toBe(200);
  return res.body;
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("dues types and bills", () => {
  it("creates types, refuses bad input and residents, and bills once per unit or KK however often it runs", async () => {
    const c = await community();
    const second = await addUnit(c, "1");
    const exempt = await addUnit(c, "2");
    await duesType(c, { exemptUnitIds: [exempt] });
    await duesType(c, { name: "Iuran keamanan", amount: 50_000, basis: "kk" });

    expectProblem(
      await callJson("/api/iuran/jenis", {
        token: c.bendahara.token,
        body: { name: "X", amount: 2.5, basis: "rumah", startPeriod: "2026-13" },
      }),
      400,
      "invalid_input",
    );
    expectProblem(
      await callJson("/api/iuran/jenis", {
        token: c.home.warga.token,
        body: { name: "Iuran", amount: 1000, basis: "unit", startPeriod: "2026-01" },
      }),
      403,
      "forbidden_role",
    );
    expectProblem(await generate({ ...c, bendahara: c.sek }, "2026-03"), 403, "forbidden_role");

    // Two generations at once: the unique key lets one set of bills in.
    const [a, b] = await Promise.all([generate(c, "2026-03"), generate(c, "2026-03")]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // Units: the household's and `second` (the exempt one is left out); KK: the household's one card.
    expect(a.body.created + b.body.created).toBe(3);
    const again = await generate(c, "2026-03");
    expect(again.body).toMatchObject({ created: 0, existing: 3 });

    const bills = await billsOf(c, "period=2026-03");
    expect(bills).toHaveLength(3);
    expect(bills.filter((x) => x.unitId === exempt)).toEqual([]);
    expect(bills.filter((x) => x.unitId === second).map((x) => x.amount)).toEqual([25_000]);
    const kk = bills.find((x) => x.familyId === c.home.kkId);
    expect(kk).toMatchObject({ amount: 50_000, unitId: c.home.unitId, status: "belum" });
    expect(await billsOf(c, `period=2026-03&unitId=${c.home.unitId}&status=belum`)).toHaveLength(2);
  });

  it("applies a changed amount from the next period; bills already issued keep theirs", async () => {
    const now = new Date("2026-11-20T05:00:00Z");
    const rates = withAmount([{ from: "2026-01", amount: 25_000 }], 30_000, "2026-01", now);
    expect(rates).toEqual([
      { from: "2026-01", amount: 25_000 },
      { from: "2026-12", amount: 30_000 },
    ]);

    const c = await community();
    const type = await duesType(c);
    await generate(c, "2026-02");
    const res = await callJson<{ amount: number; nextAmount: number | null }>(`/api/iuran/jenis/${type.id}`, {
      method: "PUT",
      token: c.bendahara.token,
      body: { name: "Iuran kebersihan", amount: 40_000, basis: "unit", startPeriod: "2026-01", active: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.nextAmount).toBe(40_000);
    expect((await billsOf(c, "period=2026-02"))[0]?.amount).toBe(25_000);
  });
});

describe("payments", () => {
  it("takes partial payments to lunas, posting each to the cash book; refuses overpayment and paid bills", async () => {
    const c = await community();
    await duesType(c);
    await generate(c, "2026-03");
    const [bill] = await billsOf(c, "period=2026-03");
    if (!bill) {
      throw new Error("no bill");
    }
    const first = await pay(c, bill.id, 10_000);
    expect(first.status).toBe(201);
    expect(first.body.bill).toMatchObject({ paidAmount: 10_000, outstanding: 15_000, status: "sebagian" });
    expectProblem(await pay(c, bill.id, 20_000), 409, "overpayment");
    expectProblem(await pay(c, bill.id, 5_000, c.home.warga.token), 403, "forbidden_role");
    expectProblem(
      await callJson(`/api/iuran/tagihan/${bill.id}/pembayaran`, {
        token: c.bendahara.token,
        body: { amount: -5, method: "cek", paidAt: "kemarin" },
      }),
      400,
      "invalid_input",
    );
    const second = await pay(c, bill.id, 15_000);
    expect(second.body.bill).toMatchObject({ paidAmount: 25_000, outstanding: 0, status: "lunas" });
    expectProblem(await pay(c, bill.id, 1), 409, "bill_paid");

    const book = await cash(c);
    const entries = book.items.filter((e) => e.source === "iuran");
    expect(entries.map((e) => e.amount)).toEqual([10_000, 15_000]);
    expect(entries.map((e) => e.id)).toEqual([first.body.cashEntryId, second.body.cashEntryId]);
    expect(book.closingBalance).toBe(25_000);

    const other = await community();
    expectProblem(await pay(other, bill.id, 1), 404, "not_found");
  });

  it("lets one of two payments racing for the last rupiah in", async () => {
    const c = await community();
    await duesType(c);
    await generate(c, "2026-04");
    const [bill] = await billsOf(c, "period=2026-04");
    const results = await Promise.all([pay(c, bill?.id ?? "", 20_000), pay(c, bill?.id ?? "", 20_000)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await billsOf(c, "period=2026-04"))[0]?.paidAmount).toBe(20_000);
    expect((await cash(c)).closingBalance).toBe(20_000);
  });

  it("shows a resident their household's bills, unpaid first, with totals; 409 without a unit", async () => {
    const c = await community();
    await duesType(c);
    await generate(c, "2026-03");
    await generate(c, "2026-04");
    const [march] = await billsOf(c, `period=2026-03&unitId=${c.home.unitId}`);
    await pay(c, march?.id ?? "", 25_000);
    const mine = await callJson<{ items: Bill[]; totals: Record<string, number> }>("/api/iuran/mine", {
      token: c.home.warga.token,
    });
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((b) => [b.period, b.status])).toEqual([
      ["2026-04", "belum"],
      ["2026-03", "lunas"],
    ]);
    expect(mine.body.totals).toMatchObject({
      billed: 50_000,
      paid: 25_000,
      outstanding: 25_000,
      unpaidBills: 1,
    });
    const homeless = await c.tenant.member("warga");
    expectProblem(await callJson("/api/iuran/mine", { token: homeless.token }), 409, "profile_incomplete");
    expectProblem(await callJson("/api/iuran/mine", { token: c.sek.token }), 403, "forbidden_role");
  });

  it("counts on the watch what the household's own bills say it owes, and nothing of another house", async () => {
    const c = await community();
    await duesType(c);
    await duesType(c, { name: "Iuran sosial", amount: 10_000, basis: "kk" });
    for (const period of ["2026-03", "2026-04", "2026-05"]) {
      await generate(c, period);
    }
    const [march] = await billsOf(c, `period=2026-03&unitId=${c.home.unitId}`);
    const [april] = await billsOf(c, `period=2026-04&unitId=${c.home.unitId}`);
    await pay(c, march?.id ?? "", march?.amount ?? 0);
    await pay(c, april?.id ?? "", 5_000);
    // Another house of the same community owes too; none of it is this household's.
    await addUnit(c, "9");
    await generate(c, "2026-06");

    const watch = (token: string) =>
      callJson<{ dues: { total: number; count: number } }>("/api/watch/summary", { token });
    const mine = await callJson<{ items: Bill[] }>("/api/iuran/mine", { token: c.home.warga.token });
    const unpaid = mine.body.items.filter((b) => b.status !== "lunas");
    const seen = await watch(c.home.warga.token);
    expect(seen.status).toBe(200);
    expect(seen.body.dues).toEqual({
      total: unpaid.reduce((sum, b) => sum + b.outstanding, 0),
      count: unpaid.length,
    });
    // Eight bills of 25,000 and 10,000 over four months, less the March bill paid and 5,000 of April's.
    expect(seen.body.dues).toEqual({ total: 4 * 35_000 - 25_000 - 5_000, count: 7 });
    // A member without a house owes nothing; another community's resident sees their own (none).
    expect((await watch((await c.tenant.member("warga")).token)).body.dues).toEqual({ total: 0, count: 0 });
    expect((await watch((await community()).home.warga.token)).body.dues).toEqual({ total: 0, count: 0 });
  });
});

describe("arrears and reminders", () => {
  it("ages what each unit owes into 0–30, 31–60, 61–90 and >90 days, with totals and the dashboard figure", async () => {
    const c = await community();
    const second = await addUnit(c, "7");
    await duesType(c);
    for (const period of ["2026-06", "2026-09", "2026-10", "2026-11"]) {
      await generate(c, period);
    }
    const [paidOff] = await billsOf(c, `period=2026-11&unitId=${second}`);
    await pay(c, paidOff?.id ?? "", 25_000);
    const ctx = await memberCtx(c.tenant.slug, c.sek, "sekretaris");
    const report = await arrears({ ctx, now: new Date("2026-11-20T05:00:00Z") });
    const home = report.items.find((i) => i.unitId === c.home.unitId);
    // Nov: 19 days; Oct: 50; Sep: 80; Jun: 172.
    expect(home).toMatchObject({
      owed: 100_000,
      unpaidBills: 4,
      oldestPeriod: "2026-06",
      aging: { d0_30: 25_000, d31_60: 25_000, d61_90: 25_000, d90plus: 25_000 },
    });
    expect(report.items.find((i) => i.unitId === second)?.owed).toBe(75_000);
    expect(report.totals).toMatchObject({ owed: 175_000, units: 2 });

    const route = await callJson<{ totals: { owed: number } }>("/api/iuran/tunggakan", {
      token: c.bendahara.token,
    });
    expect(route.status).toBe(200);
    expectProblem(
      await callJson("/api/iuran/tunggakan", { token: c.home.warga.token }),
      403,
      "forbidden_role",
    );
    const dashboard = await callJson<{ indicators: Record<string, number> }>("/api/statistik/operasional", {
      token: c.admin.token,
    });
    expect(JSON.stringify(dashboard.body)).toContain("duesArrears");
  });

  it("holds reminders asked for at night until 07:00 WIB, sends them then by WhatsApp, at most once per 3 days", async () => {
    expect(reminderSendAfter(new Date("2026-11-20T15:30:00Z")).toISOString()).toBe(
      "2026-11-21T00:00:00.000Z",
    );
    expect(reminderSendAfter(new Date("2026-11-20T22:30:00Z")).toISOString()).toBe(
      "2026-11-21T00:00:00.000Z",
    );
    const c = await community();
    const empty = await addUnit(c, "9");
    await duesType(c);
    await generate(c, "2026-10");
    const ctx = await memberCtx(c.tenant.slug, c.bendahara, "bendahara");
    const night = new Date("2026-11-20T15:30:00Z"); // 22:30 WIB
    const asked = await sendReminders({ ctx: ctxAt(ctx, night), input: {} });
    expect(asked).toMatchObject({
      queued: 1,
      sentNow: 0,
      heldUntil: "2026-11-21T00:00:00.000Z",
      skipped: { noRecipient: 1, recentlyReminded: 0 },
    });
    expect(empty).toBeTruthy();
    const number = (
      await platformDb(bindings).select().from(users).where(eq(users.id, c.home.warga.id)).get()
    )?.whatsapp;
    const whatsapp = () =>
      queuedMessages({ recipient: number ?? "none" }).then((all) =>
        all.filter((m) => m.channel === "whatsapp"),
      );
    const before = (await whatsapp()).length;

    const system = systemPlatformCtx(bindings, "test");
    await runScheduled(system, jobs, CRON.HOURLY, new Date("2026-11-20T23:00:00Z")); // 06:00 WIB: still held
    expect((await whatsapp()).length).toBe(before);
    await runScheduled(system, jobs, CRON.HOURLY, new Date("2026-11-21T00:00:00Z")); // 07:00 WIB
    const sent = (await whatsapp()).slice(before);
    expect(sent.some((m) => JSON.stringify(m.payload).includes("Rp25.000"))).toBe(true);
    await runScheduled(system, jobs, CRON.HOURLY, new Date("2026-11-21T01:00:00Z"));
    expect((await whatsapp()).length).toBe(before + sent.length);

    const again = await sendReminders({ ctx: ctxAt(ctx, "2026-11-22T03:00:00Z"), input: {} });
    expect(again).toMatchObject({ queued: 0, skipped: { recentlyReminded: 1 } });
    const later = await sendReminders({
      ctx: ctxAt(ctx, "2026-11-24T03:00:00Z"),
      input: { unitIds: [c.home.unitId] },
    });
    expect(later).toMatchObject({ queued: 1, sentNow: 1, heldUntil: null });

    expectProblem(
      await callJson("/api/iuran/pengingat", { token: c.home.warga.token, body: {} }),
      403,
      "forbidden_role",
    );
  });
});

describe("cash book", () => {
  it("keeps entries as written: a correction is a linked reversing entry, once, and only for manual entries", async () => {
    const c = await community();
    const entry = await callJson<Entry>("/api/kas", {
      token: c.bendahara.token,
      body: {
        kind: "masuk",
        category: "Sumbangan",
        amount: 300_000,
        date: "2026-02-10",
        note: "Sumbangan hajatan",
      },
    });
    expect(entry.status).toBe(201);
    expectProblem(
      await callJson("/api/kas", {
        token: c.home.warga.token,
        body: { kind: "masuk", category: "Sumbangan", amount: 1, date: "2026-02-10", note: "Coba" },
      }),
      403,
      "forbidden_role",
    );
    expectProblem(
      await callJson("/api/kas", {
        token: c.bendahara.token,
        body: { kind: "masuk", category: "Sumbangan", amount: 1, date: "2099-01-01", note: "Masa depan" },
      }),
      400,
      "invalid_date",
    );
    const fix = await callJson<Entry>(`/api/kas/${entry.body.id}/koreksi`, {
      token: c.bendahara.token,
      body: { reason: "Salah catat nominal" },
    });
    expect(fix.status).toBe(201);
    expect(fix.body).toMatchObject({
      kind: "keluar",
      amount: 300_000,
      source: "koreksi",
      reversesId: entry.body.id,
    });
    expectProblem(
      await callJson(`/api/kas/${entry.body.id}/koreksi`, {
        token: c.bendahara.token,
        body: { reason: "Lagi" },
      }),
      409,
      "already_corrected",
    );
    expectProblem(
      await callJson(`/api/kas/${fix.body.id}/koreksi`, {
        token: c.bendahara.token,
        body: { reason: "Balik" },
      }),
      409,
      "not_correctable",
    );
    expect((await cash(c)).closingBalance).toBe(0);
  });

  it("attaches uploaded files by id: this tenant's file of the right purpose only", async () => {
    const c = await community();
    const upload = async (who: Member, purpose: string) => {
      const res = await postFile("/api/files", {
        token: who.token,
        bytes: CLEAN_PNG,
        name: "nota.png",
        type: "image/png",
        fields: { purpose },
      });
      expect(res.status).toBe(201);
      return res.body as StoredFile;
    };
    const scan = await upload(c.bendahara, "lampiran_kas");
    const body = { kind: "keluar", category: "ATK", amount: 45_000, date: "2026-02-02", note: "Beli map" };
    const ok = await callJson<{ attachmentUrl: string | null }>("/api/kas", {
      token: c.bendahara.token,
      body: { ...body, attachmentFileId: scan.id },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.attachmentUrl).toBe(scan.url);
    const cover = await upload(c.sek, "sampul");
    expectProblem(
      await callJson("/api/kas", { token: c.bendahara.token, body: { ...body, attachmentFileId: cover.id } }),
      400,
      "invalid_file_purpose",
    );
    const other = await community();
    const foreign = await upload(other.bendahara, "nota");
    expectProblem(
      await callJson("/api/pengeluaran", {
        token: c.bendahara.token,
        body: {
          category: "ATK",
          amount: 10_000,
          date: "2026-02-02",
          description: "Pulpen",
          receiptFileId: foreign.id,
        },
      }),
      404,
      "file_not_found",
    );
  });

  it("gives the running balance and the opening and closing balances of a date range, across pages", async () => {
    const c = await community();
    const post = (kind: string, amount: number, date: string, category = "Umum") =>
      callJson("/api/kas", {
        token: c.bendahara.token,
        body: { kind, category, amount, date, note: "Catatan" },
      });
    await post("masuk", 1_000_000, "2026-01-05");
    await post("keluar", 200_000, "2026-02-03");
    await post("masuk", 50_000, "2026-02-04", "Parkir");
    await post("keluar", 30_000, "2026-02-20");
    await post("masuk", 5_000, "2026-03-01");
    const feb = await cash(c, "from=2026-02-01&to=2026-02-28");
    expect(feb.openingBalance).toBe(1_000_000);
    expect(feb.items.map((e) => e.balance)).toEqual([800_000, 850_000, 820_000]);
    expect(feb.closingBalance).toBe(820_000);
    const page1 = await callJson<CashBook>("/api/kas?limit=2", { token: c.sek.token });
    const page2 = await callJson<CashBook>(`/api/kas?limit=2&cursor=${page1.body.nextCursor}`, {
      token: c.sek.token,
    });
    expect([...page1.body.items, ...page2.body.items].map((e) => e.balance)).toEqual([
      1_000_000, 800_000, 850_000, 820_000,
    ]);
    // The keyset lists' one inner format, inside the opaque cursor: the last entry's date and id.
    expect(openCursor("/api/kas", page1.body.nextCursor ?? "")).toMatch(/^2026-02-03~[0-9A-Z]{26}$/);
    expectProblem(
      await callJson("/api/kas?cursor=2026-02-03_01ABC", { token: c.sek.token }),
      400,
      "invalid_cursor",
    );
    const parkir = await cash(c, "category=Parkir");
    expect(parkir).toMatchObject({ openingBalance: 0, closingBalance: 50_000 });
    expectProblem(
      await callJson("/api/kas?from=2026-03-01&to=2026-02-01", { token: c.sek.token }),
      400,
      "invalid_range",
    );
  });

  it("balances to the sum of its entries under any sequence of postings and corrections (property)", async () => {
    const c = await community();
    const ctx = await memberCtx(c.tenant.slug, c.bendahara, "bendahara");
    const posting = fc.record({
      kind: fc.constantFrom("masuk" as const, "keluar" as const),
      amount: fc.integer({ min: 1, max: 5_000_000 }),
      day: fc.integer({ min: 1, max: 28 }),
      category: fc.constantFrom("Iuran", "Keamanan", "Kebersihan"),
    });
    const step = fc.oneof(
      posting.map((p) => ({ op: "post" as const, ...p })),
      fc.nat().map((pick) => ({ op: "correct" as const, pick })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const written: { id: string; kind: string; amount: number }[] = [];
        const before = (await listCash({ ctx, input: { limit: 100 } })).closingBalance;
        let expected = before;
        for (const s of steps) {
          if (s.op === "post") {
            const date = `2026-01-${String(s.day).padStart(2, "0")}`;
            const e = await createCashEntry({
              ctx,
              input: { kind: s.kind, amount: s.amount, date, category: s.category, note: "Uji sifat" },
            });
            written.push(e);
            expected += e.kind === "masuk" ? e.amount : -e.amount;
          } else if (written.length > 0) {
            const target = written[s.pick % written.length] as (typeof written)[number];
            try {
              const r = await correctCashEntry({ ctx, id: target.id, input: { reason: "Uji koreksi" } });
              expected += r.kind === "masuk" ? r.amount : -r.amount;
            } catch (error) {
              expect(String((error as { code?: string }).code)).toBe("already_corrected");
            }
          }
        }
        // Walk every page: the running balance continues across pages and ends at the closing balance.
        let cursor: string | undefined;
        let running: number | null = null;
        let closing = 0;
        let sum = 0;
        do {
          const page = await listCash({ ctx, input: { limit: 7, cursor } });
          closing = page.closingBalance;
          for (const item of page.items) {
            sum += item.kind === "masuk" ? item.amount : -item.amount;
            running = item.balance;
          }
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        expect(closing).toBe(expected);
        expect(sum).toBe(expected);
        expect(running ?? 0).toBe(expected);
      }),
      { numRuns: 15 },
    );
  });
});

describe("budget and expenses", () => {
  it("approves small expenses on submission, leaves larger ones to the admin once, and realises them in the budget", async () => {
    const c = await community();
    const small = await callJson<{ id: string; status: string; cashEntryId: string | null }>(
      "/api/pengeluaran",
      {
        token: c.bendahara.token,
        body: {
          category: "Kebersihan",
          amount: 150_000,
          date: "2026-05-02",
          description: "Beli sapu dan tempat sampah",
        },
      },
    );
    expect(small.status).toBe(201);
    expect(small.body.status).toBe("disetujui");
    expect(small.body.cashEntryId).toBeTruthy();
    const big = await callJson<{ id: string; status: string }>("/api/pengeluaran", {
      token: c.bendahara.token,
      body: { category: "Keamanan", amount: 2_500_000, date: "2026-05-03", description: "Honor satpam Mei" },
    });
    expect(big.body.status).toBe("diajukan");
    const decide = (token: string, body: unknown) =>
      callJson<{ status: string; cashEntryId: string | null }>(`/api/pengeluaran/${big.body.id}`, {
        method: "PUT",
        token,
        body,
      });
    expectProblem(await decide(c.bendahara.token, { status: "disetujui" }), 403, "forbidden_role");
    expectProblem(await decide(c.admin.token, { status: "dibayar" }), 400, "invalid_input");
    const [one, two] = await Promise.all([
      decide(c.admin.token, { status: "disetujui" }),
      decide(c.admin.token, { status: "ditolak", reason: "Dobel" }),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const approved = one.status === 200 ? one.body.status === "disetujui" : two.body.status === "disetujui";
    expectRefusedMove(await decide(c.admin.token, { status: "disetujui" }), []);

    expectProblem(
      await callJson("/api/anggaran/2026", {
        method: "PUT",
        token: c.bendahara.token,
        body: { lines: [{ category: "Keamanan", amount: 30_000_000 }] },
      }),
      403,
      "forbidden_role",
    );
    const put = await callJson<{ lines: { category: string; realised: number; percentUsed: number }[] }>(
      "/api/anggaran/2026",
      {
        method: "PUT",
        token: c.admin.token,
        body: {
          lines: [
            { category: "Keamanan", amount: 30_000_000 },
            { category: "Kebersihan", amount: 1_500_000 },
          ],
        },
      },
    );
    expect(put.status).toBe(200);
    const budget = await callJson<{ lines: { category: string; realised: number; percentUsed: number }[] }>(
      "/api/anggaran?tahun=2026",
      { token: c.sek.token },
    );
    expect(budget.body.lines).toEqual([
      {
        category: "Keamanan",
        amount: 30_000_000,
        realised: approved ? 2_500_000 : 0,
        percentUsed: approved ? 8.3 : 0,
      },
      { category: "Kebersihan", amount: 1_500_000, realised: 150_000, percentUsed: 10 },
    ]);
    expectProblem(await callJson("/api/anggaran?tahun=abc", { token: c.sek.token }), 400, "invalid_input");

    // The threshold is the tenant's setting.
    await callJson("/api/keuangan/pengaturan", {
      method: "PUT",
      token: c.admin.token,
      body: { expenseApprovalThreshold: 100_000 },
    });
    const now = await callJson<{ status: string }>("/api/pengeluaran", {
      token: c.bendahara.token,
      body: { category: "Kebersihan", amount: 150_000, date: "2026-05-04", description: "Kantong sampah" },
    });
    expect(now.body.status).toBe("diajukan");
  });
});

describe("campaigns and donations", () => {
  it("shows progress to residents, posts confirmed donations once, and hides anonymous donors", async () => {
    const c = await community();
    const neighbour = await c.tenant.member("warga");
    const deadline = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const created = await callJson<{ id: string }>("/api/kampanye", {
      token: c.sek.token,
      body: { title: "Perbaikan jalan gang", description: "Pengecoran gang 3", target: 4_000_000, deadline },
    });
    expect(created.status).toBe(201);
    expectProblem(
      await callJson("/api/kampanye", {
        token: c.home.warga.token,
        body: { title: "Kampanye", description: "Oleh warga", target: 1000, deadline },
      }),
      403,
      "forbidden_role",
    );
    const id = created.body.id;
    const pledge = await callJson<{ id: string; status: string }>(`/api/kampanye/${id}/donasi`, {
      token: c.home.warga.token,
      body: { amount: 500_000, anonymous: true, note: "Semoga lancar" },
    });
    expect(pledge.body.status).toBe("dijanjikan");
    const cashGift = await callJson<{ status: string; cashEntryId: string | null }>(
      `/api/kampanye/${id}/donasi`,
      {
        token: c.bendahara.token,
        // Under the approval threshold (Rp500.000), so booked at once (issue 44 P10).
        body: { amount: 400_000, donorName: "Pak Haji Somad" },
      },
    );
    expect(cashGift.body).toMatchObject({ status: "dikonfirmasi" });
    const decide = (status: string) =>
      callJson(`/api/kampanye/${id}/donasi/${pledge.body.id}`, {
        method: "PUT",
        token: c.bendahara.token,
        body: { status },
      });
    expect((await decide("dikonfirmasi")).status).toBe(200);
    expectRefusedMove(await decide("ditolak"), []);
    expectProblem(
      await callJson(`/api/kampanye/${id}/donasi/${pledge.body.id}`, {
        method: "PUT",
        token: c.home.warga.token,
        body: { status: "ditolak" },
      }),
      403,
      "forbidden_role",
    );

    const list = await callJson<{ items: { id: string; progress: Record<string, number> }[] }>(
      "/api/kampanye",
      {
        token: neighbour.token,
      },
    );
    expect(list.body.items.find((x) => x.id === id)?.progress).toEqual({
      confirmed: 900_000,
      percent: 22.5,
      donors: 2,
    });
    // The watch counts the same confirmed gifts in its one batch; a pledge not yet confirmed is not one.
    await callJson(`/api/kampanye/${id}/donasi`, { token: neighbour.token, body: { amount: 100_000 } });
    const watch = await callJson<{ campaigns: { id: string; collected: number; target: number }[] }>(
      "/api/watch/summary",
      { token: neighbour.token },
    );
    expect(watch.body.campaigns.find((x) => x.id === id)).toMatchObject({
      collected: 900_000,
      target: 4_000_000,
    });
    const seenByNeighbour = await callJson<{ donations: { donorName: string | null; anonymous: boolean }[] }>(
      `/api/kampanye/${id}`,
      { token: neighbour.token },
    );
    expect(seenByNeighbour.body.donations.find((d) => d.anonymous)?.donorName).toBeNull();
    const seenByFinance = await callJson<{ donations: { donorName: string | null; anonymous: boolean }[] }>(
      `/api/kampanye/${id}`,
      { token: c.admin.token },
    );
    expect(seenByFinance.body.donations.find((d) => d.anonymous)?.donorName).toBeTruthy();
    expect((await cash(c)).items.filter((e) => e.source === "donasi").map((e) => e.amount)).toEqual([
      400_000, 500_000,
    ]);

    const closed = await callJson(`/api/kampanye/${id}`, {
      method: "PUT",
      token: c.sek.token,
      body: { status: "selesai" },
    });
    expect(closed.status).toBe(200);
    expectProblem(
      await callJson(`/api/kampanye/${id}/donasi`, { token: c.home.warga.token, body: { amount: 1000 } }),
      409,
      "campaign_closed",
    );
  });
});

describe("reports", () => {
  it("sums the month, serves the PDF once per version from storage, and publishes only with transparansi", async () => {
    const c = await community();
    await duesType(c);
    await generate(c, "2026-03");
    const [bill] = await billsOf(c, "period=2026-03");
    await pay(c, bill?.id ?? "", 10_000);
    await callJson("/api/kas", {
      token: c.bendahara.token,
      body: {
        kind: "masuk",
        category: "Saldo awal",
        amount: 2_000_000,
        date: "2026-02-01",
        note: "Saldo pindahan",
      },
    });
    await callJson("/api/pengeluaran", {
      token: c.bendahara.token,
      body: { category: "Kebersihan", amount: 120_000, date: "2026-03-10", description: "Sapu lidi" },
    });
    const report = await callJson<Record<string, unknown>>("/api/laporan/keuangan?bulan=2026-03", {
      token: c.sek.token,
    });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      month: "2026-03",
      openingBalance: 2_000_000,
      income: { total: 10_000, byCategory: [{ category: "Iuran kebersihan", amount: 10_000 }] },
      expense: { total: 120_000, byCategory: [{ category: "Kebersihan", amount: 120_000 }] },
      closingBalance: 1_890_000,
      dues: { billed: 25_000, collected: 10_000, percentCollected: 40, receivedInMonth: 10_000 },
      arrearsTotal: 15_000,
    });
    expectProblem(
      await callJson("/api/laporan/keuangan?bulan=2026-3", { token: c.sek.token }),
      400,
      "invalid_input",
    );
    expectProblem(
      await callJson("/api/laporan/keuangan?bulan=2026-03", { token: c.home.warga.token }),
      403,
      "forbidden_role",
    );

    const rendered: string[] = [];
    vi.spyOn(pdfRendering, "create").mockImplementation(() => ({
      async render(html: string) {
        rendered.push(html);
        return new TextEncoder().encode(`%PDF-1.4 ${rendered.length}`);
      },
    }));
    const first = await fetchPdf(c.sek.token);
    expect(first.source).toBe("render");
    expect(rendered[0]).toContain("Rp1.890.000");
    expect((await fetchPdf(c.admin.token)).source).toBe("r2");
    expect(rendered).toHaveLength(1);

    const xlsx = await call("/api/laporan/keuangan?bulan=2026-03&format=xlsx", { token: c.bendahara.token });
    expect(xlsx.headers.get("Content-Type")).toBe(XLSX_TYPE);
    const sheets = readWorkbook(new Uint8Array(await xlsx.arrayBuffer()));
    expect(sheets.map((sheet) => sheet.name)).toEqual(["Ringkasan", "Pemasukan", "Pengeluaran"]);
    expect(sheets[0]?.rows).toContainEqual(["Saldo akhir", "1890000"]);
    expect(sheets[2]?.rows).toContainEqual(["Kebersihan", "120000"]);

    const publicPath = `/api/public/tenants/${c.tenant.slug}/laporan?bulan=2026-03`;
    expectProblem(await callJson(publicPath), 404, "not_found");
    await callJson("/api/keuangan/pengaturan", {
      method: "PUT",
      token: c.admin.token,
      body: { transparansi: true },
    });
    const published = await callJson<Record<string, unknown>>(publicPath);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ closingBalance: 1_890_000, arrearsTotal: 15_000 });
  });
});

async function fetchPdf(token: string) {
  const res = await call("/api/laporan/keuangan?bulan=2026-03&format=pdf", { token });
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("application/pdf");
  const text = await res.text();
  expect(text.startsWith("%PDF")).toBe(true);
  return { source: res.headers.get("X-Pdf-Source") };
}

describe("monthly generation", () => {
  it("issues the month's bills on the 1st (Jakarta) from the daily job, and a repeated run adds nothing", async () => {
    const c = await community();
    await duesType(c, { startPeriod: "2026-12" });
    const system = systemPlatformCtx(bindings, "test");
    await runScheduled(system, jobs, CRON.JAKARTA_DAILY, new Date("2026-11-15T17:05:00Z"));
    expect(await billsOf(c, "period=2026-11")).toEqual([]);
    const first = new Date("2026-11-30T17:05:00Z"); // 00:05 WIB on 1 December
    await runScheduled(system, jobs, CRON.JAKARTA_DAILY, first);
    await runScheduled(system, jobs, CRON.JAKARTA_DAILY, first);
    const bills = await billsOf(c, "period=2026-12");
    expect(bills.map((b) => b.unitId)).toEqual([c.home.unitId]);
  });
});

describe("moving out (issue 45)", () => {
  const mutasi = (c: Community, body: Record<string, unknown>, token = c.sek.token) =>
    callJson<{ id: string; familyCardId: string }>("/api/kependudukan/mutasi", { token, body });
  const occupancy = async (c: Community, unitId: string) =>
    (
      await callJson<{ occupancy: string | null }>(`/api/kependudukan/units/${unitId}`, {
        token: c.sek.token,
      })
    ).body.occupancy;
  const membershipOf = (userId: string) =>
    platformDb(bindings).select().from(memberships).where(eq(memberships.userId, userId)).get();

  it("is one act: memberships end with a grace period, the house is empty, and its bills become the family's debt", async () => {
    const c = await community();
    await duesType(c);
    await duesType(c, { name: "Iuran sosial", amount: 10_000, basis: "kk" });
    await generate(c, "2026-03");
    const mine = await callJson<{ totals: { outstanding: number } }>("/api/iuran/mine", {
      token: c.home.warga.token,
    });
    expect(mine.body.totals.outstanding).toBe(35_000);

    // Bad input, and another community's secretary: nothing moves.
    expectProblem(await mutasi(c, { kind: "pindah_keluar", date: "2026-03-20" }), 400, "invalid_input");
    const other = await community();
    expectProblem(
      await mutasi(other, { kind: "pindah_keluar", date: "2026-03-20", familyCardId: c.home.kkId }),
      404,
      "not_found",
    );
    expect((await membershipOf(c.home.warga.id))?.graceUntil).toBeNull();

    const left = await mutasi(c, { kind: "pindah_keluar", date: "2026-03-20", familyCardId: c.home.kkId });
    expect(left.status, JSON.stringify(left.body)).toBe(201);
    expect(await occupancy(c, c.home.unitId)).toBe("kosong");

    // The membership has ended, kept only for the grace period: no duty, no house, old sign-ins refused.
    const ended = await membershipOf(c.home.warga.id);
    expect(ended).toMatchObject({ roles: [], unitId: null, personId: c.home.headMemberId });
    expect(Date.parse(ended?.graceUntil ?? "") - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect((await callJson("/api/iuran/mine", { token: c.home.warga.token })).status).toBe(401);
    // Signing in again, the person still downloads their own data, this community's included.
    const again = await login(c.home.warga.email, c.tenant.slug);
    const exported = await callJson<{ memberships: { tenant: { slug: string } }[] }>(
      "/api/user/data-export",
      {
        token: again,
      },
    );
    expect(exported.status).toBe(200);
    expect(exported.body.memberships.map((m) => m.tenant.slug)).toContain(c.tenant.slug);
    expectProblem(await callJson("/api/iuran/mine", { token: again }), 403, "forbidden_role");

    // The treasurer sees the family's debt apart, labelled; the house owes nothing any more.
    const debts = await callJson<{ items: Record<string, unknown>[] }>("/api/iuran/tunggakan/pindah", {
      token: c.bendahara.token,
    });
    expect(debts.body.items).toEqual([
      expect.objectContaining({
        familyId: c.home.kkId,
        label: "pindah",
        headName: "Budi Santoso",
        leftOn: "2026-03-20",
        unitId: c.home.unitId,
        owed: 35_000,
        unpaidBills: 2,
        oldestPeriod: "2026-03",
      }),
    ]);
    const ctx = await memberCtx(c.tenant.slug, c.sek, "sekretaris");
    const report = await arrears({ ctx, now: new Date("2026-04-20T05:00:00Z") });
    expect(report.items.find((i) => i.unitId === c.home.unitId)).toBeUndefined();
    expectProblem(await callJson("/api/iuran/tunggakan/pindah", { token: again }), 403, "forbidden_role");
    expectProblem(await callJson("/api/kampanye", { token: again }), 403, "forbidden_role");

    // An empty house is not billed per unit, unless the community says so.
    await generate(c, "2026-04");
    expect(await billsOf(c, `period=2026-04&unitId=${c.home.unitId}`)).toEqual([]);
    const setting = await callJson<{ billEmptyUnits: boolean }>("/api/keuangan/pengaturan", {
      method: "PUT",
      token: c.admin.token,
      body: { billEmptyUnits: true },
    });
    expect(setting.body.billEmptyUnits).toBe(true);
    await generate(c, "2026-05");
    expect((await billsOf(c, `period=2026-05&unitId=${c.home.unitId}`)).map((b) => b.basis)).toEqual([
      "unit",
    ]);

    // The next occupant starts clean: none of the previous family's bills, and none of them to pay.
    const arrived = await mutasi(c, {
      kind: "pindah_masuk",
      date: "2026-03-25",
      kkNumber: nik(),
      unitId: c.home.unitId,
      headName: "Joko Purnomo",
      headNik: nik("150585"),
      headSex: "L",
    });
    expect(arrived.status, JSON.stringify(arrived.body)).toBe(201);
    expect(await occupancy(c, c.home.unitId)).toBeNull();
    const newcomer = await c.tenant.member("warga", {
      unitId: c.home.unitId,
      whatsapp: `62857${String(Date.now()).slice(-7)}`,
    });
    const theirs = await callJson<{ items: Bill[] }>("/api/iuran/mine", { token: newcomer.token });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect(theirs.body.items.map((b) => b.period)).toEqual(["2026-05"]);
    // The watch counts the same bills: the family's debt that stayed with the house is not the newcomer's.
    const watch = await callJson<{ dues: { total: number; count: number } }>("/api/watch/summary", {
      token: newcomer.token,
    });
    expect(watch.body.dues).toEqual({ total: theirs.body.items[0]?.outstanding, count: 1 });
    const old = debts.body.items[0] as { familyId: string };
    const [oldBill] = (await billsOf(c, "period=2026-03")).filter((b) => b.basis === "unit");
    expect(oldBill).toMatchObject({ movedOutFamilyId: old.familyId });
    expectProblem(
      await callJson(`/api/iuran/tagihan/${oldBill?.id}/bayar-online`, { token: newcomer.token, body: {} }),
      404,
      "not_found",
    );

    // After the grace period the hourly job ends the membership for good.
    await endMoveOutGrace({ platform: platformDb(bindings) }, new Date(Date.now() + 31 * 86_400_000));
    expect(await membershipOf(c.home.warga.id)).toBeUndefined();
  });

  it("in the grace period the moved-out person sees and pays exactly their family's debt, in one checkout", async () => {
    interface Debts {
      items: {
        tenant: { slug: string };
        familyId: string;
        headName: string | null;
        owed: number;
        bills: Bill[];
      }[];
    }
    const tanggungan = (token: string) => callJson<Debts>("/api/user/tanggungan", { token });
    const bayar = (token: string, body: Record<string, unknown>) =>
      callJson<{ orderId: string; amount: number; items: { billId: string }[] }>(
        "/api/user/tanggungan/bayar",
        {
          token,
          body,
        },
      );
    const gw = fakeGateways();
    const c = await community();
    const neighbour = await household(c.tenant);
    await duesType(c);
    await duesType(c, { name: "Iuran sosial", amount: 10_000, basis: "kk" });
    await generate(c, "2026-03");
    expect((await tanggungan(c.home.warga.token)).body.items).toEqual([]);
    await mutasi(c, { kind: "pindah_keluar", date: "2026-03-20", familyCardId: c.home.kkId });
    await mutasi(c, { kind: "pindah_keluar", date: "2026-03-21", familyCardId: neighbour.kkId });
    const ours = (await billsOf(c, "period=2026-03")).filter((b) => b.movedOutFamilyId === c.home.kkId);
    const theirs = (await billsOf(c, "period=2026-03")).filter((b) => b.movedOutFamilyId === neighbour.kkId);
    expect(ours).toHaveLength(2);
    expect(theirs).toHaveLength(2);

    // Signed in again (their only membership is the grace one), they see their family's debt, no other.
    const again = await login(c.home.warga.email);
    const seen = await tanggungan(again);
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body.items).toEqual([
      expect.objectContaining({
        tenant: expect.objectContaining({ slug: c.tenant.slug }),
        familyId: c.home.kkId,
        headName: "Budi Santoso",
        owed: 35_000,
      }),
    ]);
    expect(seen.body.items[0]?.bills.map((b) => b.id).sort()).toEqual(ours.map((b) => b.id).sort());

    // Another family's bill, even alongside their own, and a community they never left: 404; bad input 400.
    const ourIds = ours.map((b) => b.id);
    expectProblem(await bayar(again, { billIds: [...ourIds, theirs[0]?.id] }), 404, "not_found");
    expectProblem(await bayar(again, { billIds: ourIds, tenant: "kampung-lain" }), 404, "not_found");
    expectProblem(await bayar(again, { billIds: [] }), 400, "invalid_input");
    // Another community's member (wrong tenant) and the house's next occupant reach none of it.
    const other = await community();
    expect((await tanggungan(other.home.warga.token)).body.items).toEqual([]);
    expectProblem(await bayar(other.home.warga.token, { billIds: ourIds }), 404, "not_found");
    expectProblem(
      await bayar(other.home.warga.token, { billIds: ourIds, tenant: c.tenant.slug }),
      404,
      "not_found",
    );
    const newcomer = await c.tenant.member("warga", {
      unitId: c.home.unitId,
      whatsapp: `62858${String(Date.now()).slice(-7)}`,
    });
    expect((await tanggungan(newcomer.token)).body.items).toEqual([]);
    expectProblem(await bayar(newcomer.token, { billIds: ourIds }), 404, "not_found");

    // One checkout for both bills, paid by the gateway's callback.
    const started = await bayar(again, { billIds: ourIds });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.amount).toBe(35_000);
    expect(gw.sent.filter((s) => s.url.endsWith("/snap/v1/transactions"))).toHaveLength(1);
    const { orderId } = started.body;
    gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: "35000.00" });
    const paid = await postCallback(
      await midtransNotification(orderId, { transaction_status: "settlement", gross_amount: "35000.00" }),
    );
    expect(paid.status).toBe(200);
    expect((await tanggungan(again)).body.items).toEqual([expect.objectContaining({ owed: 0, bills: [] })]);
    const debts = await callJson<{ items: { familyId: string }[] }>("/api/iuran/tunggakan/pindah", {
      token: c.bendahara.token,
    });
    expect(debts.body.items.map((d) => d.familyId)).toEqual([neighbour.kkId]);
    expect(
      (await billsOf(c, "period=2026-03")).filter((b) => ourIds.includes(b.id)).map((b) => b.status),
    ).toEqual(["lunas", "lunas"]);

    // With a live membership elsewhere, signing in without naming a community lands there, not on the
    // grace one; the debt is still theirs to see.
    await platformDb(bindings)
      .insert(memberships)
      .values({ id: `m-${other.tenant.slug}`, userId: c.home.warga.id, tenantId: other.tenant.id });
    const live = await login(c.home.warga.email);
    expect(JSON.parse(atob(live.split(".")[1] ?? "")).tenant).toBe(other.tenant.slug);
    expect((await tanggungan(live)).body.items.map((i) => i.tenant.slug)).toEqual([c.tenant.slug]);

    // After the grace period (before the hourly job deletes the membership): nothing listed or payable.
    await platformDb(bindings)
      .update(memberships)
      .set({ graceUntil: new Date(Date.now() - 60_000).toISOString() })
      .where(and(eq(memberships.tenantId, c.tenant.id), eq(memberships.userId, c.home.warga.id)));
    expect((await tanggungan(again)).body.items).toEqual([]);
    expectProblem(await bayar(again, { billIds: ourIds, tenant: c.tenant.slug }), 404, "not_found");
  });

  it("a death that leaves nobody living in the house is a move-out too; one that leaves a family is not", async () => {
    const c = await community();
    await duesType(c);
    await generate(c, "2026-03");
    await mutasi(c, { kind: "meninggal", date: "2026-03-10", memberId: c.home.childMemberId });
    expect(await occupancy(c, c.home.unitId)).toBeNull();
    expect((await membershipOf(c.home.warga.id))?.graceUntil).toBeNull();
    const last = await mutasi(c, { kind: "meninggal", date: "2026-03-12", memberId: c.home.headMemberId });
    expect(last.status, JSON.stringify(last.body)).toBe(201);
    expect(await occupancy(c, c.home.unitId)).toBe("kosong");
    expect((await membershipOf(c.home.warga.id))?.graceUntil).not.toBeNull();
    expect(await billsOf(c, `unitId=${c.home.unitId}`)).toEqual([]);
  });
});
