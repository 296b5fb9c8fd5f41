import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { donate as donateAs, namesOfficer } from "../../../src/modules/keuangan/kampanye/donations";
import { submitExpense } from "../../../src/modules/keuangan/kas/pengeluaran";
import { donations, expenses } from "../../../src/modules/keuangan/tables";
import { setNow } from "../../helpers/clock";
import { losingRace, memberCtx } from "../../helpers/contexts";
import { callJson, expectProblem, type Member } from "../../helpers/harness";
import { type Community, community } from "./helpers";

/**
 * Separation of duties in finance (issue 31 N5, ADR 0028): nobody decides their own expense, a
 * treasurer's pieces under the approval threshold add up per month, and a finance officer's own
 * donation waits for another officer like a resident's pledge; so does cash an officer records in their
 * own name or past their monthly threshold (issue 44 P10).
 */

interface Expense {
  id: string;
  status: string;
  submittedBy: string;
  decidedBy: string | null;
  cashEntryId: string | null;
}

const submit = (who: Member, amount: number, date = "2026-05-04") =>
  callJson<Expense>("/api/pengeluaran", {
    token: who.token,
    body: { category: "Kegiatan", amount, date, description: "Konsumsi kerja bakti" },
  });

const decide = (who: Member, id: string, body: Record<string, unknown> = { status: "disetujui" }) =>
  callJson<Expense>(`/api/pengeluaran/${id}`, { method: "PUT", token: who.token, body });

describe("expenses: whoever decides is not who submitted", () => {
  it("sends the head's own expense to another officer (409 self_approval for the head), and a treasurer's to the head only", async () => {
    setNow("2026-05-10T05:00:00.000Z");
    const c = await community();
    const own = await submit(c.admin, 900_000);
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ status: "diajukan", submittedBy: c.admin.id });
    expectProblem(await decide(c.admin, own.body.id), 409, "self_approval");
    const byTreasurer = await decide(c.bendahara, own.body.id);
    expect(byTreasurer.status).toBe(200);
    expect(byTreasurer.body).toMatchObject({ status: "disetujui", decidedBy: c.bendahara.id });
    expect(byTreasurer.body.cashEntryId).toBeTruthy();

    // A treasurer's expense: neither that treasurer nor another decides it, only the head.
    const other = await c.tenant.member("bendahara");
    const theirs = await submit(c.bendahara, 900_000);
    expect(theirs.body.status).toBe("diajukan");
    expectProblem(await decide(c.bendahara, theirs.body.id), 403, "forbidden_role");
    expectProblem(await decide(other, theirs.body.id), 403, "forbidden_role");
    expectProblem(await decide(c.sek, theirs.body.id), 403, "forbidden_role");
    const rejected = await decide(c.admin, theirs.body.id, { status: "ditolak", reason: "Tanpa nota" });
    expect(rejected.body).toMatchObject({ status: "ditolak", decidedBy: c.admin.id });

    // A second head decides the first head's expense; the first head still cannot.
    const secondHead = await c.tenant.member("admin");
    const another = await submit(c.admin, 700_000);
    expectProblem(await decide(c.admin, another.body.id), 409, "self_approval");
    expect((await decide(secondHead, another.body.id)).body.status).toBe("disetujui");
  });

  it("refuses bad input, unknown ids and another tenant's expense", async () => {
    setNow("2026-05-10T05:00:00.000Z");
    const c = await community();
    const pending = await submit(c.bendahara, 900_000);
    expectProblem(await decide(c.admin, pending.body.id, { status: "lunas" }), 400, "invalid_input");
    expectProblem(await decide(c.admin, pending.body.id, { status: "ditolak" }), 400, "invalid_input");
    expectProblem(await submit(c.bendahara, -5), 400, "invalid_input");
    expectProblem(await decide(c.admin, "01JZZZZZZZZZZZZZZZZZZZZZZZ"), 404, "not_found");
    const stranger: Community = await community();
    expectProblem(await decide(stranger.admin, pending.body.id), 404, "not_found");
    expectProblem(await decide(stranger.bendahara, pending.body.id), 404, "not_found");
    const still = await callJson<{ items: Expense[] }>("/api/pengeluaran?status=diajukan", {
      token: c.sek.token,
    });
    expect(still.body.items.map((e) => e.id)).toContain(pending.body.id);
  });
});

describe("expenses: a per-submitter cumulative threshold per month", () => {
  it("approves a treasurer's pieces on submission only while the month's self-approved total stays under the threshold", async () => {
    setNow("2026-05-10T05:00:00.000Z");
    const c = await community();
    // Threshold Rp500.000 (the default): 200k + 200k = 400k pass; the third would make 600k and waits.
    const first = await submit(c.bendahara, 200_000);
    const second = await submit(c.bendahara, 200_000);
    const third = await submit(c.bendahara, 200_000);
    expect([first.body.status, second.body.status, third.body.status]).toEqual([
      "disetujui",
      "disetujui",
      "diajukan",
    ]);
    // Still room under it for a small one: 400k + 90k = 490k.
    expect((await submit(c.bendahara, 90_000)).body.status).toBe("disetujui");
    expect((await submit(c.bendahara, 10_000)).body.status).toBe("diajukan");
    // What the head approved does not count as the treasurer's own; another officer is counted apart.
    expect((await decide(c.admin, third.body.id)).body.status).toBe("disetujui");
    const colleague = await c.tenant.member("bendahara");
    expect((await submit(colleague, 450_000)).body.status).toBe("disetujui");

    // A new Jakarta month starts a new total (00:30 WIB on 1 June is still 31 May in UTC).
    setNow("2026-05-31T17:30:00.000Z");
    expect((await submit(c.bendahara, 300_000, "2026-06-01")).body.status).toBe("disetujui");
    expect((await submit(c.bendahara, 300_000, "2026-06-01")).body.status).toBe("diajukan");
  });

  it("lets only one of two racing pieces slip under: the loser waits for approval, posting nothing", async () => {
    setNow("2026-05-10T05:00:00.000Z");
    const c = await community();
    const ctx = await memberCtx(c.tenant.slug, c.bendahara, "bendahara");
    const input = {
      category: "Kegiatan",
      amount: 300_000,
      date: "2026-05-04",
      description: "Sewa sound system",
    };
    let rivalRan = false;
    const racing = losingRace(ctx, async () => {
      if (!rivalRan) {
        rivalRan = true;
        // The same treasurer's other request lands between this one's check and its batch.
        await submitExpense({ ctx, input });
      }
    });
    const loser = await submitExpense({ ctx: racing, input });
    expect(rivalRan).toBe(true);
    expect(loser).toMatchObject({ status: "diajukan", decidedBy: null, cashEntryId: null });
    const rows = await ctx.db.select().from(expenses).where(eq(expenses.submittedBy, c.bendahara.id));
    expect(rows.map((r) => r.status).sort()).toEqual(["diajukan", "disetujui"]);
    const cash = await callJson<{ items: { source: string; amount: number }[] }>("/api/kas?limit=100", {
      token: c.sek.token,
    });
    expect(cash.body.items.filter((e) => e.source === "pengeluaran").map((e) => e.amount)).toEqual([300_000]);
  });
});

describe("donations: a finance officer's own donation waits for another officer", () => {
  async function campaign(c: Community) {
    const res = await callJson<{ id: string }>("/api/kampanye", {
      token: c.sek.token,
      body: {
        title: "Lampu jalan gang 4",
        description: "Pemasangan enam lampu tenaga surya",
        target: 3_000_000,
        deadline: "2026-07-31",
      },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  }
  const donate = (who: Member, id: string, body: Record<string, unknown>) =>
    callJson<{ id: string; status: string; cashEntryId: string | null }>(`/api/kampanye/${id}/donasi`, {
      token: who.token,
      body,
    });
  const confirm = (who: Member, id: string, donationId: string, status = "dikonfirmasi") =>
    callJson<{ status: string; cashEntryId: string | null }>(`/api/kampanye/${id}/donasi/${donationId}`, {
      method: "PUT",
      token: who.token,
      body: { status },
    });

  it("pledges the treasurer's and the head's own gifts; 409 self_confirmation for the giver, another officer confirms", async () => {
    setNow("2026-05-10T05:00:00.000Z");
    const c = await community();
    const id = await campaign(c);
    const own = await donate(c.bendahara, id, { amount: 400_000 });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ status: "dijanjikan", cashEntryId: null });
    expectProblem(await confirm(c.bendahara, id, own.body.id), 409, "self_confirmation");
    expectProblem(await confirm(c.bendahara, id, own.body.id, "ditolak"), 409, "self_confirmation");
    const confirmed = await confirm(c.admin, id, own.body.id);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe("dikonfirmasi");
    expect(confirmed.body.cashEntryId).toBeTruthy();

    const head = await donate(c.admin, id, { amount: 250_000, anonymous: true });
    expect(head.body.status).toBe("dijanjikan");
    expectProblem(await confirm(c.admin, id, head.body.id), 409, "self_confirmation");
    expect((await confirm(c.bendahara, id, head.body.id)).body.status).toBe("dikonfirmasi");

    // Cash in hand from a named neighbour is still booked at once.
    const handed = await donate(c.bendahara, id, { amount: 100_000, donorName: "Bu Sri Wahyuni" });
    expect(handed.body.status).toBe("dikonfirmasi");
    const detail = await callJson<{ progress: { confirmed: number } }>(`/api/kampanye/${id}`, {
      token: c.sek.token,
    });
    expect(detail.body.progress.confirmed).toBe(750_000);
  });

  it("holds cash an officer records in their own name for a second officer (409 self_confirmation for the recorder)", async () => {
    setNow("2026-05-10T05:00:00.000Z");
    const c = await community();
    const id = await campaign(c);
    // The officer's own name (the harness names every account "Pengguna Uji"), with an honorific and in
    // other letters, is still their own donation.
    const mine = await donate(c.bendahara, id, { amount: 200_000, donorName: "Pak PENGGUNA uji." });
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ status: "dijanjikan", cashEntryId: null });
    expectProblem(await confirm(c.bendahara, id, mine.body.id), 409, "self_confirmation");
    expectProblem(await confirm(c.bendahara, id, mine.body.id, "ditolak"), 409, "self_confirmation");
    const confirmed = await confirm(c.admin, id, mine.body.id);
    expect(confirmed.body).toMatchObject({ status: "dikonfirmasi" });
    expect(confirmed.body.cashEntryId).toBeTruthy();
    expect(namesOfficer("Budi", "Bapak Budi Santoso")).toBe(true);
    expect(namesOfficer("Bu Sri Wahyuni", "Budi Santoso")).toBe(false);
  });

  it("books an officer's cash alone only under the monthly threshold; past it another officer confirms", async () => {
    setNow("2026-05-10T05:00:00.000Z");
    const c = await community();
    const id = await campaign(c);
    const first = await donate(c.bendahara, id, { amount: 300_000, donorName: "Bu Sri Wahyuni" });
    expect(first.body.status).toBe("dikonfirmasi");
    // 300.000 + 300.000 reaches the default Rp500.000: this one waits, and so does one big gift alone.
    const second = await donate(c.bendahara, id, { amount: 300_000, donorName: "Pak Joko" });
    expect(second.body).toMatchObject({ status: "dijanjikan", cashEntryId: null });
    const big = await donate(c.admin, id, { amount: 600_000, donorName: "Pak Harto" });
    expect(big.body.status).toBe("dijanjikan");
    expectProblem(await confirm(c.bendahara, id, second.body.id), 409, "self_confirmation");
    expectProblem(await confirm(c.admin, id, big.body.id), 409, "self_confirmation");
    expect((await confirm(c.admin, id, second.body.id)).body.status).toBe("dikonfirmasi");
    expect((await confirm(c.bendahara, id, big.body.id)).body.status).toBe("dikonfirmasi");
    const detail = await callJson<{ progress: { confirmed: number } }>(`/api/kampanye/${id}`, {
      token: c.sek.token,
    });
    expect(detail.body).toMatchObject({ progress: { confirmed: 1_200_000 } });
    // A new month starts the officer's own total again.
    setNow("2026-06-02T05:00:00.000Z");
    const june = await donate(c.bendahara, id, { amount: 300_000, donorName: "Pak Joko" });
    expect(june.body.status).toBe("dikonfirmasi");
  });

  it("lets only one of two cash records landing at once slip under the threshold", async () => {
    setNow("2026-05-10T05:00:00.000Z");
    const c = await community();
    const id = await campaign(c);
    const ctx = await memberCtx(c.tenant.slug, c.bendahara, "bendahara");
    const input = { amount: 300_000, anonymous: false, donorName: "Bu Sri Wahyuni" };
    let rivalRan = false;
    const racing = losingRace(ctx, async () => {
      if (!rivalRan) {
        rivalRan = true;
        await donateAs({ ctx, id, input });
      }
    });
    const loser = await donateAs({ ctx: racing, id, input });
    expect(rivalRan).toBe(true);
    expect(loser).toMatchObject({ status: "dijanjikan", cashEntryId: null });
    const rows = await ctx.db.select().from(donations).where(eq(donations.recordedBy, c.bendahara.id));
    expect(rows.map((r) => r.status).sort()).toEqual(["dijanjikan", "dikonfirmasi"]);
  });

  it("refuses a bad decision, an unknown donation and another tenant's officer", async () => {
    setNow("2026-05-10T05:00:00.000Z");
    const c = await community();
    const id = await campaign(c);
    const own = await donate(c.bendahara, id, { amount: 50_000 });
    expectProblem(await confirm(c.admin, id, own.body.id, "lunas"), 400, "invalid_input");
    expectProblem(await donate(c.bendahara, id, { amount: 0 }), 400, "invalid_input");
    expectProblem(await confirm(c.admin, id, "01JZZZZZZZZZZZZZZZZZZZZZZZ"), 404, "not_found");
    const stranger = await community();
    expectProblem(await confirm(stranger.admin, id, own.body.id), 404, "not_found");
    expectProblem(await confirm(stranger.bendahara, id, own.body.id), 404, "not_found");
    expect((await confirm(c.admin, id, own.body.id)).body.status).toBe("dikonfirmasi");
  });
});
