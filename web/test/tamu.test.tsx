import { fireEvent, render, screen, waitFor, within } from "@testing-library/preact";
import { LocationProvider } from "preact-iso";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { Tamu } from "../src/screens/tamu";
import type { Visitor } from "../src/screens/tamu/visitor";
import { fake, problem, signedInAs, useFakeApi } from "./fake-api";

useFakeApi();

const HOUR = 3_600_000;
const guest = (over: Partial<Visitor>): Visitor => ({
  id: "v1",
  guestName: "Rina Marlina",
  purpose: "Kunjungan keluarga",
  visitAt: new Date(Date.now() + HOUR).toISOString(),
  vehiclePlate: "B 1234 XYZ",
  identity: "KTP",
  status: "menunggu",
  note: null,
  passValidFrom: null,
  passValidUntil: null,
  pass: null,
  passCode: null,
  checkedInAt: null,
  checkedOutAt: null,
  inside: false,
  ...over,
});

function open(url: string) {
  history.replaceState(null, "", url);
  return render(
    <LocationProvider>
      <Tamu />
    </LocationProvider>,
  );
}

beforeEach(async () => {
  await signedInAs();
  // The QR image: an object URL of the SVG the API answered.
  vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: () => "blob:qr", revokeObjectURL: () => {} }));
});

describe("registering a guest", () => {
  it("marks plate and identity as the community asks, sends the time as WIB, and goes to the new guest", async () => {
    fake.routes["GET /api/visitor/settings"] = {
      status: 200,
      body: { requireVehiclePlate: true, requireIdentity: false, updatedAt: null },
    };
    fake.routes["POST /api/visitor"] = { status: 201, body: guest({ id: "v9" }) };
    fake.routes["GET /api/visitor/v9"] = { status: 200, body: guest({ id: "v9" }) };
    open("/tamu?baru");
    const name = await screen.findByLabelText("Nama tamu");
    expect(screen.getByLabelText("Pelat kendaraan")).toHaveProperty("required", true);
    expect(screen.getByLabelText("Identitas tamu (mis. nomor KTP) (boleh dikosongkan)")).toHaveProperty(
      "required",
      false,
    );
    fireEvent.input(name, { target: { value: "Rina Marlina" } });
    fireEvent.input(screen.getByLabelText("Keperluan"), { target: { value: "Kunjungan keluarga" } });
    fireEvent.input(screen.getByLabelText("Waktu kunjungan (WIB)"), {
      target: { value: "2026-12-01T10:30" },
    });
    fireEvent.input(screen.getByLabelText("Pelat kendaraan"), { target: { value: "b 1234 xyz" } });
    fireEvent.click(screen.getByRole("button", { name: "Daftarkan" }));
    await screen.findByRole("heading", { level: 1, name: "Rina Marlina" });
    const sent = fake.seen.find((s) => s.method === "POST" && s.path === "/api/visitor");
    expect(JSON.parse(String(sent?.body))).toEqual({
      guestName: "Rina Marlina",
      purpose: "Kunjungan keluarga",
      visitAt: "2026-12-01T10:30:00+07:00",
      vehiclePlate: "b 1234 xyz",
    });
    expect(location.search).toBe("?id=v9");
    expect(screen.getByText("Menunggu persetujuan")).toBeTruthy();
  });

  it("after a refusal keeps what was typed, shows the problem beside its field, and retries with the same key", async () => {
    fake.routes["GET /api/visitor/settings"] = {
      status: 200,
      body: { requireVehiclePlate: true, requireIdentity: true, updatedAt: null },
    };
    fake.routes["POST /api/visitor"] = {
      status: 400,
      body: {
        ...(problem(400, "invalid_input", "Data yang dikirim tidak valid.").body as object),
        errors: [{ field: "vehiclePlate", message: "huruf, angka dan spasi, paling banyak 15" }],
      },
    };
    open("/tamu?baru");
    fireEvent.input(await screen.findByLabelText("Nama tamu"), { target: { value: "Dedi" } });
    fireEvent.input(screen.getByLabelText("Keperluan"), { target: { value: "Antar paket" } });
    fireEvent.input(screen.getByLabelText("Pelat kendaraan"), { target: { value: "B-1234-!!" } });
    fireEvent.input(screen.getByLabelText("Identitas tamu (mis. nomor KTP)"), { target: { value: "KTP" } });
    fireEvent.click(screen.getByRole("button", { name: "Daftarkan" }));
    const plate = screen.getByLabelText("Pelat kendaraan") as HTMLInputElement;
    await waitFor(() => expect(plate.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(plate.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "huruf, angka dan spasi, paling banyak 15",
    );
    expect(screen.getByRole("alert").textContent).toBe("Data yang dikirim tidak valid.");
    expect(plate.value).toBe("B-1234-!!");
    expect((screen.getByLabelText("Nama tamu") as HTMLInputElement).value).toBe("Dedi");

    fireEvent.click(screen.getByRole("button", { name: "Daftarkan" }));
    const writes = () => fake.seen.filter((s) => s.method === "POST" && s.path === "/api/visitor");
    await waitFor(() => expect(writes()).toHaveLength(2));
    const keys = writes().map((s) => s.headers.get("Idempotency-Key"));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });
});

describe("my guests", () => {
  it("lists today's, upcoming and earlier guests, each with where it stands", async () => {
    fake.routes["GET /api/visitor/mine"] = {
      status: 200,
      body: {
        items: [
          guest({
            id: "a",
            guestName: "Agus",
            visitAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          }),
          guest({
            id: "b",
            guestName: "Sri",
            visitAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
            status: "disetujui",
            checkedInAt: new Date().toISOString(),
            checkedOutAt: new Date().toISOString(),
          }),
        ],
        nextCursor: null,
      },
    };
    open("/tamu");
    const upcoming = await screen.findByRole("heading", { name: "Akan datang" });
    expect(upcoming.closest("article")?.textContent).toContain("Agus");
    expect(upcoming.closest("article")?.textContent).toContain("Menunggu persetujuan");
    const past = screen.getByRole("heading", { name: "Sebelumnya" });
    expect(past.closest("article")?.textContent).toContain("Sudah keluar");
    expect(screen.queryByRole("heading", { name: "Hari ini" })).toBeNull();
    expect(screen.getByRole("link", { name: /Agus/ }).getAttribute("href")).toBe("/tamu?id=a");
  });

  it("shows a walk-in waiting at the gate for this house, answered with Setujui or Tolak", async () => {
    const atGate = guest({
      id: "w1",
      guestName: "Bayu",
      purpose: "Ojek online",
      visitAt: new Date().toISOString(),
      walkIn: true,
    });
    let answered = false;
    fake.routes["GET /api/visitor/mine"] = () => ({
      status: 200,
      body: { items: [answered ? { ...atGate, status: "disetujui" } : atGate], nextCursor: null },
    });
    fake.routes["POST /api/visitor/w1/tuan-rumah"] = () => {
      answered = true;
      return { status: 200, body: { ...atGate, status: "disetujui" } };
    };
    open("/tamu");
    const card = (await screen.findByRole("heading", { name: "Tamu menunggu di gerbang" })).closest(
      "article",
    );
    expect(card?.textContent).toContain("Bayu");
    expect(card?.textContent).toContain("Ojek online");
    expect(screen.getByRole("button", { name: "Tolak" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Setujui" }));
    await waitFor(() =>
      expect(screen.queryByRole("heading", { name: "Tamu menunggu di gerbang" })).toBeNull(),
    );
    const sent = fake.seen.find((s) => s.path === "/api/visitor/w1/tuan-rumah");
    expect(JSON.parse(String(sent?.body))).toEqual({ status: "disetujui" });
  });

  it("says so when there are none, and offers a retry when the list fails", async () => {
    fake.routes["GET /api/visitor/mine"] = problem(503, "unavailable", "Layanan sedang tidak tersedia.");
    open("/tamu");
    expect((await screen.findByRole("alert", {}, { timeout: 5000 })).textContent).toContain(
      "Layanan sedang tidak tersedia.",
    );
    fake.routes["GET /api/visitor/mine"] = { status: 200, body: { items: [], nextCursor: null } };
    fireEvent.click(screen.getByRole("button", { name: "Coba lagi" }));
    expect(await screen.findByText("Belum ada tamu yang Anda daftarkan.")).toBeTruthy();
  });
});

describe("regular visitors (Tamu tetap)", () => {
  const card = {
    id: "r1",
    name: "Mbak Sri",
    role: "art",
    vehiclePlate: null,
    days: [1, 2, 3, 4, 5],
    fromTime: "07:00",
    untilTime: "17:00",
    validUntil: null,
    revokedAt: null,
    admittedNow: true,
  };

  it("is reached from the guest list, issues a card, keeps what was typed when refused, and revokes one", async () => {
    let cards = [card];
    fake.routes["GET /api/visitor/mine"] = { status: 200, body: { items: [], nextCursor: null } };
    fake.routes["GET /api/visitor/regular"] = () => ({
      status: 200,
      body: { items: cards, nextCursor: null },
    });
    open("/tamu");
    expect((await screen.findByRole("link", { name: "Tamu tetap" })).getAttribute("href")).toBe(
      "/tamu?tetap",
    );

    fake.routes["POST /api/visitor/regular"] = {
      status: 400,
      body: {
        ...(problem(400, "invalid_input", "Data yang dikirim tidak valid.").body as object),
        errors: [{ field: "vehiclePlate", message: "huruf, angka dan spasi, paling banyak 15" }],
      },
    };
    open("/tamu?tetap");
    const list = await screen.findByText("Mbak Sri");
    expect(list.closest("li")?.textContent).toContain("Sen, Sel, Rab, Kam, Jum");
    fireEvent.input(screen.getByLabelText("Nama"), { target: { value: "Pak Darto" } });
    fireEvent.change(screen.getByLabelText("Peran"), { target: { value: "sopir" } });
    fireEvent.input(screen.getByLabelText("Peran"), { target: { value: "sopir" } });
    // Weekdays are ticked by default: untick Friday, tick Saturday.
    fireEvent.change(screen.getByLabelText("Jum"));
    fireEvent.change(screen.getByLabelText("Sab"));
    fireEvent.input(screen.getByLabelText("Dari jam (WIB)"), { target: { value: "06:00" } });
    fireEvent.input(screen.getByLabelText("Sampai jam (WIB)"), { target: { value: "09:00" } });
    fireEvent.input(screen.getByLabelText("Pelat kendaraan (boleh dikosongkan)"), {
      target: { value: "B-1!!" },
    });
    fireEvent.input(screen.getByLabelText("Hari terakhir (boleh dikosongkan)"), {
      target: { value: "2027-06-30" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Buat kartu" }));
    const plate = screen.getByLabelText("Pelat kendaraan (boleh dikosongkan)") as HTMLInputElement;
    await waitFor(() => expect(plate.getAttribute("aria-invalid")).toBe("true"));
    expect(plate.value).toBe("B-1!!");
    expect((screen.getByLabelText("Nama") as HTMLInputElement).value).toBe("Pak Darto");
    expect((screen.getByLabelText("Sab") as HTMLInputElement).checked).toBe(true);

    const issued = { ...card, id: "r2", name: "Pak Darto", role: "sopir", days: [1, 2, 3, 4, 6] };
    fake.routes["POST /api/visitor/regular"] = () => {
      cards = [issued, card];
      return { status: 201, body: issued };
    };
    fireEvent.input(plate, { target: { value: "B 1234 XYZ" } });
    fireEvent.click(screen.getByRole("button", { name: "Buat kartu" }));
    await screen.findByText("Pak Darto");
    const writes = fake.seen.filter((s) => s.method === "POST" && s.path === "/api/visitor/regular");
    expect(JSON.parse(String(writes[1]?.body))).toEqual({
      name: "Pak Darto",
      role: "sopir",
      days: [1, 2, 3, 4, 6],
      fromTime: "06:00",
      untilTime: "09:00",
      vehiclePlate: "B 1234 XYZ",
      validUntil: "2027-06-30",
    });
    expect(writes[1]?.headers.get("Idempotency-Key")).toBe(writes[0]?.headers.get("Idempotency-Key"));
    expect((screen.getByLabelText("Nama") as HTMLInputElement).value).toBe("");

    fake.routes["POST /api/visitor/regular/r1/cabut"] = () => {
      cards = [issued];
      return { status: 200, body: { ...card, revokedAt: new Date().toISOString() } };
    };
    const row = screen.getByText("Mbak Sri").closest("li") as HTMLElement;
    fireEvent.click(within(row).getByRole("button", { name: "Cabut" }));
    await waitFor(() => expect(screen.queryByText("Mbak Sri")).toBeNull());
  });

  it("shows the host a walk-in's photo read with the token", async () => {
    fake.routes["GET /api/visitor/mine"] = {
      status: 200,
      body: {
        items: [
          guest({
            id: "w1",
            guestName: "Bayu",
            walkIn: true,
            visitAt: new Date().toISOString(),
            photoUrl: "http://127.0.0.1:8787/api/visitor/w1/foto",
          }),
        ],
        nextCursor: null,
      },
    };
    fake.routes["GET /api/visitor/w1/foto"] = { status: 200, body: "png" };
    open("/tamu");
    expect(await screen.findByRole("img", { name: "Foto Bayu" })).toBeTruthy();
  });
});

describe("the pass", () => {
  it("shows the approved pass's QR, its code, and the pass page's link for WhatsApp", async () => {
    const pass = "eyJhbGciOiJIUzI1NiJ9.eyJ0ZW5hbnQiOiJydC0wMSJ9.c2ln";
    fake.routes["GET /api/visitor/v1"] = {
      status: 200,
      body: guest({
        status: "disetujui",
        pass,
        passCode: "K7QX-2M9D",
        passValidFrom: new Date().toISOString(),
        passValidUntil: new Date(Date.now() + 5 * HOUR).toISOString(),
      }),
    };
    fake.routes["GET /api/visitor/v1/qr"] = { status: 200, body: "<svg/>" };
    open("/tamu?id=v1");
    const qr = await screen.findByRole("img", { name: "Kode QR untuk Rina Marlina" });
    expect(qr.getAttribute("src")).toBe("blob:qr");
    expect(screen.getByText("K7QX-2M9D")).toBeTruthy();
    const wa = screen.getByRole("link", { name: "Kirim lewat WhatsApp" }).getAttribute("href") ?? "";
    expect(wa.startsWith("https://wa.me/?text=")).toBe(true);
    const text = decodeURIComponent(wa.slice("https://wa.me/?text=".length));
    expect(text).toContain(`${location.origin}/tamu/${encodeURIComponent(pass)}`);
    expect(text).toContain("Rina Marlina");
  });

  it("shows no pass, and asks for no QR, while the request waits for the committee", async () => {
    fake.routes["GET /api/visitor/v1"] = { status: 200, body: guest({}) };
    open("/tamu?id=v1");
    expect(await screen.findByText(/Pengurus belum memutuskan/)).toBeTruthy();
    expect(screen.queryByRole("img")).toBeNull();
    expect(fake.seen.some((s) => s.path === "/api/visitor/v1/qr")).toBe(false);
  });
});
