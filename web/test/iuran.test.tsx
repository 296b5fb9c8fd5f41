import { fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { LocationProvider } from "preact-iso";
import { describe, expect, it, vi } from "vitest";
import { type Bill, gateway, Iuran, type MyDues } from "../src/screens/iuran";
import { fake, problem, signedInAs, useFakeApi } from "./fake-api";

useFakeApi();

const bill = (over: Partial<Bill>): Bill => ({
  id: "b1",
  typeName: "Iuran sosial",
  period: "2026-11",
  amount: 20_000,
  paidAmount: 0,
  outstanding: 20_000,
  status: "belum",
  payments: [],
  dueDate: "2026-11-10",
  overdue: false,
  ...over,
});

const dues = (items: Bill[]): MyDues => ({
  unitId: "u1",
  items,
  totals: {
    billed: items.reduce((n, b) => n + b.amount, 0),
    paid: items.reduce((n, b) => n + b.paidAmount, 0),
    outstanding: items.reduce((n, b) => n + b.outstanding, 0),
    unpaidBills: items.filter((b) => b.status !== "lunas").length,
    overdue: items.filter((b) => b.overdue).reduce((n, b) => n + b.outstanding, 0),
    notYetDue: items.filter((b) => !b.overdue).reduce((n, b) => n + b.outstanding, 0),
  },
});

const paidOnline = bill({
  id: "b2",
  typeName: "Iuran keamanan",
  period: "2026-10",
  amount: 50_000,
  paidAmount: 50_000,
  outstanding: 0,
  status: "lunas",
  payments: [
    {
      id: "p1",
      amount: 50_000,
      method: "online",
      paidAt: "2026-11-02T03:00:00.000Z",
      orderId: "iuran-01ORDER",
      reversed: false,
    },
  ],
});

function open(url: string) {
  window.history.replaceState(null, "", url);
  return render(
    <LocationProvider>
      <Iuran />
    </LocationProvider>,
  );
}

describe("the iuran screen", () => {
  it("lists the unpaid bills with their total, and the payments with a receipt each", async () => {
    await signedInAs();
    fake.routes["/api/iuran/mine"] = {
      status: 200,
      body: dues([
        bill({}),
        bill({ id: "b3", status: "sebagian", paidAmount: 5_000, outstanding: 15_000 }),
        paidOnline,
      ]),
    };
    open("/iuran");
    expect(screen.getAllByRole("status").length).toBeGreaterThan(0);
    expect(await screen.findByText("Total belum dibayar: Rp35.000")).toBeTruthy();
    expect(screen.getAllByRole("button", { name: "Bayar Iuran sosial November 2026" })).toHaveLength(2);
    expect(screen.getByText("sudah dibayar Rp5.000")).toBeTruthy();
    const receipt = screen.getByRole("link", { name: "Kuitansi Iuran keamanan Oktober 2026" });
    expect(receipt.getAttribute("href")).toBe("/iuran/kuitansi/p1");
  });

  it("shows this month apart from the arrears, and pays the ticked bills in one checkout", async () => {
    await signedInAs();
    fake.routes["/api/iuran/mine"] = {
      status: 200,
      body: dues([
        bill({ id: "b8", period: "2026-09", dueDate: "2026-09-10", overdue: true }),
        bill({ id: "b9", period: "2026-10", dueDate: "2026-10-10", overdue: true }),
        bill({ id: "b10", period: "2026-11", dueDate: "2026-11-10" }),
      ]),
    };
    fake.routes["POST /api/iuran/bayar-online"] = {
      status: 200,
      body: { orderId: "iuran-9", paymentUrl: "https://pay.example/9", amount: 40_000, expiresAt: "x" },
    };
    const opened = vi.spyOn(gateway, "open").mockImplementation(() => {});
    open("/iuran");
    const overdue = await screen.findByRole("region", { name: "Tunggakan" });
    expect(overdue.textContent).toContain("September 2026");
    expect(overdue.textContent).toContain("Oktober 2026");
    expect(overdue.textContent).not.toContain("November 2026");
    const current = screen.getByRole("region", { name: "Bulan ini" });
    expect(current.textContent).toContain("November 2026");
    expect(screen.getByRole("button", { name: "Bayar 3 tagihan — Rp60.000" })).toBeTruthy();
    fireEvent.click(screen.getByRole("checkbox", { name: "Pilih Iuran sosial November 2026" }));
    fireEvent.click(await screen.findByRole("button", { name: "Bayar 2 tagihan — Rp40.000" }));
    await waitFor(() => expect(opened).toHaveBeenCalledWith("https://pay.example/9"));
    const sent = fake.seen.filter((r) => r.path === "/api/iuran/bayar-online");
    expect(sent).toHaveLength(1);
    expect(JSON.parse(String(sent[0]?.body))).toEqual({ billIds: ["b8", "b9"] });
    opened.mockRestore();
  });

  it("says so when everything is paid and nothing was ever paid", async () => {
    await signedInAs();
    fake.routes["/api/iuran/mine"] = { status: 200, body: dues([]) };
    open("/iuran");
    expect(await screen.findByText("Semua iuran sudah lunas. Terima kasih!")).toBeTruthy();
    expect(screen.getByText("Belum ada pembayaran.")).toBeTruthy();
  });

  it("sends a resident without a house to complete the profile", async () => {
    await signedInAs();
    fake.routes["/api/iuran/mine"] = problem(409, "profile_incomplete", "Lengkapi profil");
    open("/iuran");
    const link = await screen.findByRole("link", { name: "Lengkapi profil" });
    expect(link.getAttribute("href")).toBe("/profil");
  });

  it("opens the gateway's checkout; a failed start shows the problem and a retry sends the same key", async () => {
    await signedInAs();
    fake.routes["/api/iuran/mine"] = { status: 200, body: dues([bill({})]) };
    let fail = true;
    fake.routes["POST /api/iuran/tagihan/b1/bayar-online"] = () =>
      fail
        ? problem(409, "gateway_busy", "Penyedia pembayaran sedang sibuk")
        : {
            status: 200,
            body: { orderId: "iuran-1", paymentUrl: "https://pay.example/1", amount: 20_000, expiresAt: "x" },
          };
    const opened = vi.spyOn(gateway, "open").mockImplementation(() => {});
    open("/iuran");
    fireEvent.click(await screen.findByRole("button", { name: "Bayar Iuran sosial November 2026" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Penyedia pembayaran sedang sibuk");
    expect(opened).not.toHaveBeenCalled();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Bayar Iuran sosial November 2026" }));
    await waitFor(() => expect(opened).toHaveBeenCalledWith("https://pay.example/1"));
    const sent = fake.seen.filter((s) => s.path === "/api/iuran/tagihan/b1/bayar-online");
    expect(sent).toHaveLength(2);
    expect(sent[0]?.headers.get("Idempotency-Key")).toBeTruthy();
    expect(sent[1]?.headers.get("Idempotency-Key")).toBe(sent[0]?.headers.get("Idempotency-Key"));
    opened.mockRestore();
  });

  it("back from the gateway shows the order's receipt, or that it is not confirmed yet with a re-check", async () => {
    await signedInAs();
    let confirmed = false;
    fake.routes["/api/iuran/mine"] = () => ({
      status: 200,
      body: dues(
        confirmed ? [paidOnline] : [bill({ id: "b2", typeName: "Iuran keamanan", period: "2026-10" })],
      ),
    });
    open("/iuran?bayar=iuran-01ORDER");
    expect(await screen.findByText(/belum dikonfirmasi/)).toBeTruthy();
    confirmed = true;
    fireEvent.click(screen.getByRole("button", { name: "Periksa lagi" }));
    expect(await screen.findByText("Pembayaran berhasil. Terima kasih!")).toBeTruthy();
    const receipt = screen.getByRole("article", { name: "Kuitansi pembayaran iuran" });
    expect(receipt.textContent).toContain("Iuran keamanan · Oktober 2026");
    expect(receipt.textContent).toContain("Rp50.000");
    expect(receipt.textContent).toContain("iuran-01ORDER");
    expect(receipt.textContent).toContain("Lunas");
  });

  it("shows one payment's receipt at /iuran/kuitansi/:id", async () => {
    await signedInAs();
    fake.routes["/api/iuran/mine"] = { status: 200, body: dues([paidOnline]) };
    open("/iuran/kuitansi/p1");
    expect(await screen.findByRole("article", { name: "Kuitansi pembayaran iuran" })).toBeTruthy();
    expect(screen.getByText("2 November 2026, 10.00 WIB")).toBeTruthy();
  });
});
