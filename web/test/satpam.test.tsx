import { fireEvent, render, screen, waitFor, within } from "@testing-library/preact";
import { LocationProvider } from "preact-iso";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Satpam } from "../src/screens/satpam";
import { forgetDecoder, qrDecoder } from "../src/screens/satpam/scanner";
import type { Visitor } from "../src/screens/tamu/visitor";
import { fake, problem, resident, signedInAs, useFakeApi } from "./fake-api";

const jsQR = vi.hoisted(() => vi.fn());
vi.mock("jsqr", () => ({ default: jsQR }));

useFakeApi();

const guard = { ...resident, id: "g1", name: "Pak Slamet", resident: false, roles: ["satpam"] };
const visitor = (over: Partial<Visitor>): Visitor => ({
  id: "v1",
  residentName: "Budi Santoso",
  guestName: "Agus Setiawan",
  purpose: "Arisan",
  visitAt: new Date().toISOString(),
  vehiclePlate: "B 6612 UJK",
  identity: "KTP",
  status: "disetujui",
  note: null,
  passValidFrom: null,
  passValidUntil: null,
  checkedInAt: null,
  checkedOutAt: null,
  inside: false,
  ...over,
});
const now = new Date().toISOString();
const TODAY = [
  visitor({}),
  visitor({ id: "v2", guestName: "Sri Wahyuni", checkedInAt: now, inside: true }),
  visitor({ id: "v3", guestName: "Joko", checkedInAt: now, checkedOutAt: now }),
];

function open() {
  history.replaceState(null, "", "/satpam");
  return render(
    <LocationProvider>
      <Satpam />
    </LocationProvider>,
  );
}

const gateWrites = () => fake.seen.filter((s) => s.path.startsWith("/api/visitor/gate/"));

describe("the QR decoder", () => {
  afterEach(() => {
    forgetDecoder();
    jsQR.mockReset();
  });

  it("is the browser's BarcodeDetector where it reads QR codes, and jsqr is never loaded then", async () => {
    const detect = vi.fn(async () => [{ rawValue: "a.b.c" }]);
    vi.stubGlobal(
      "BarcodeDetector",
      Object.assign(
        class {
          detect = detect;
        },
        { getSupportedFormats: async () => ["ean_13", "qr_code"] },
      ),
    );
    const decoder = await qrDecoder();
    expect(decoder.kind).toBe("native");
    const canvas = {} as HTMLCanvasElement;
    expect(await decoder.decode(canvas)).toBe("a.b.c");
    expect(detect).toHaveBeenCalledWith(canvas);
    expect(jsQR).not.toHaveBeenCalled();
  });

  it("is jsqr where there is no detector, or one that reads no QR, reading the canvas's pixels", async () => {
    vi.stubGlobal(
      "BarcodeDetector",
      Object.assign(class {}, { getSupportedFormats: async () => [] as string[] }),
    );
    jsQR.mockReturnValue({ data: "x.y.z" });
    const pixels = new Uint8ClampedArray(4 * 2 * 3);
    const canvas = {
      width: 2,
      height: 3,
      getContext: () => ({ getImageData: () => ({ data: pixels, width: 2, height: 3 }) }),
    } as unknown as HTMLCanvasElement;
    const decoder = await qrDecoder();
    expect(decoder.kind).toBe("jsqr");
    expect(await decoder.decode(canvas)).toBe("x.y.z");
    expect(jsQR).toHaveBeenCalledWith(pixels, 2, 3, expect.anything());

    vi.unstubAllGlobals();
    forgetDecoder();
    jsQR.mockReturnValue(null);
    expect((await qrDecoder()).kind).toBe("jsqr");
    expect(await (await qrDecoder()).decode(canvas)).toBeNull();
  });
});

describe("the gate", () => {
  beforeEach(async () => {
    await signedInAs(guard);
    // Today's guests, or (with `inside=true`) who is inside now, whatever day they came.
    fake.routes["GET /api/visitor"] = (sent) => ({
      status: 200,
      body: {
        items: sent.query.get("inside") === "true" ? TODAY.filter((v) => v.inside) : TODAY,
        nextCursor: null,
      },
    });
    fake.routes["GET /api/visitor/regular"] = { status: 200, body: { items: [], nextCursor: null } };
  });

  it("lists today's guests: expected, inside and gone, asking for today only", async () => {
    open();
    expect(await screen.findByText("Hari ini: 1 ditunggu · 1 di dalam · 1 sudah keluar")).toBeTruthy();
    const expected = screen.getByRole("heading", { name: "Ditunggu (1)" }).closest("article");
    expect(expected?.textContent).toContain("Agus Setiawan");
    expect(expected?.textContent).toContain("tamu Budi Santoso");
    const insideNow = await screen.findByRole("heading", { name: "Di dalam sekarang (1)" });
    expect(insideNow.closest("article")?.textContent).toContain("Sri Wahyuni");
    const list = fake.seen.find((s) => s.path === "/api/visitor" && !s.query.has("inside"));
    expect(list?.query.get("from")).toBe(list?.query.get("to"));
    expect(list?.query.get("from")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("checks a guest in by the typed code and says so in big words, with whom the guest visits", async () => {
    fake.routes["POST /api/visitor/gate/check-in"] = {
      status: 200,
      body: { visitorId: "v1", guestName: "Agus Setiawan", checkedInAt: now, checkedOutAt: null },
    };
    open();
    await screen.findByText(/1 ditunggu/);
    fireEvent.input(screen.getByLabelText("Ketik kode pass"), { target: { value: "k7qx 2m9d" } });
    fireEvent.click(screen.getByRole("button", { name: "Periksa" }));
    expect(await screen.findByText("MASUK")).toBeTruthy();
    expect(screen.getByText("Agus Setiawan, tamu Budi Santoso")).toBeTruthy();
    expect(JSON.parse(String(gateWrites()[0]?.body))).toEqual({ code: "k7qx 2m9d" });
    // Ready for the next guest.
    expect((screen.getByLabelText("Ketik kode pass") as HTMLInputElement).value).toBe("");
  });

  it("checks out when the guard chooses Keluar, and shows a refusal with the API's reason", async () => {
    fake.routes["POST /api/visitor/gate/check-out"] = problem(
      409,
      "not_checked_in",
      "Tamu ini belum tercatat masuk.",
    );
    open();
    await screen.findByText(/1 ditunggu/);
    fireEvent.click(screen.getByLabelText("Keluar"));
    fireEvent.input(screen.getByLabelText("Ketik kode pass"), { target: { value: "header.payload.sig" } });
    fireEvent.click(screen.getByRole("button", { name: "Periksa" }));
    expect(await screen.findByText("TIDAK BISA KELUAR")).toBeTruthy();
    expect(screen.getByText("Tamu ini belum tercatat masuk.")).toBeTruthy();
    expect(gateWrites()[0]?.path).toBe("/api/visitor/gate/check-out");
    // A pasted pass (it has dots) goes as the QR it is.
    expect(JSON.parse(String(gateWrites()[0]?.body))).toEqual({ qr: "header.payload.sig" });
    // Kept, to correct it.
    expect((screen.getByLabelText("Ketik kode pass") as HTMLInputElement).value).toBe("header.payload.sig");
  });

  it("after no answer at all offers a retry that sends the same Idempotency-Key", async () => {
    let fail = true;
    fake.routes["POST /api/visitor/gate/check-in"] = () => {
      if (fail) {
        throw new TypeError("Failed to fetch");
      }
      return {
        status: 200,
        body: { visitorId: "v1", guestName: "Agus Setiawan", checkedInAt: now, checkedOutAt: null },
      };
    };
    open();
    await screen.findByText(/1 ditunggu/);
    fireEvent.input(screen.getByLabelText("Ketik kode pass"), { target: { value: "K7QX-2M9D" } });
    fireEvent.click(screen.getByRole("button", { name: "Periksa" }));
    expect(await screen.findByText("TIDAK BOLEH MASUK", {}, { timeout: 5000 })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Coba lagi" }));
    expect(await screen.findByText("MASUK")).toBeTruthy();
    const keys = new Set(gateWrites().map((s) => s.headers.get("Idempotency-Key")));
    expect(gateWrites().length).toBeGreaterThan(1);
    expect(keys.size).toBe(1);
  });

  it("registers a walk-in for a house and tells the guard the host was told", async () => {
    fake.routes["POST /api/visitor/gate/walk-in"] = {
      status: 201,
      body: visitor({ id: "w1", guestName: "Bayu", status: "menunggu", walkIn: true }),
    };
    open();
    await screen.findByText(/1 ditunggu/);
    fireEvent.click(screen.getByRole("button", { name: "Tamu datang langsung" }));
    fireEvent.input(screen.getByLabelText("Nama tamu"), { target: { value: "Bayu" } });
    fireEvent.change(screen.getByLabelText("Jenis tamu"), { target: { value: "ojol" } });
    fireEvent.input(screen.getByLabelText("Nomor kendaraan (boleh kosong)"), {
      target: { value: "B 4321 KJT" },
    });
    fireEvent.input(screen.getByLabelText("Blok"), { target: { value: "C" } });
    fireEvent.input(screen.getByLabelText("Nomor rumah"), { target: { value: "12" } });
    fireEvent.click(screen.getByRole("button", { name: "Catat dan kabari tuan rumah" }));
    expect(await screen.findByText(/Bayu dicatat; tuan rumah sudah diberi tahu/)).toBeTruthy();
    const sent = fake.seen.find((s) => s.path === "/api/visitor/gate/walk-in");
    expect(JSON.parse(String(sent?.body))).toEqual({
      guestName: "Bayu",
      category: "ojol",
      vehiclePlate: "B 4321 KJT",
      block: "C",
      number: "12",
    });
  });

  it("approves a waiting walk-in after calling the host, lets an approved one in, and lets out who is inside", async () => {
    const walkIns = [
      visitor({ id: "w1", guestName: "Bayu", status: "menunggu", walkIn: true }),
      visitor({ id: "w2", guestName: "Kurir JNE", walkIn: true }),
      visitor({ id: "v2", guestName: "Sri Wahyuni", checkedInAt: now, inside: true }),
    ];
    fake.routes["GET /api/visitor"] = (sent) => ({
      status: 200,
      body: {
        items: sent.query.get("inside") === "true" ? walkIns.filter((v) => v.inside) : walkIns,
        nextCursor: null,
      },
    });
    const ok = { status: 200, body: {} };
    fake.routes["POST /api/visitor/w1/telepon"] = ok;
    fake.routes["POST /api/visitor/gate/check-in"] = ok;
    fake.routes["POST /api/visitor/gate/check-out"] = ok;
    open();
    const waiting = await screen.findByRole("heading", { name: "Menunggu tuan rumah (1)" });
    fireEvent.click(screen.getByRole("button", { name: "Setujui (sudah ditelepon)" }));
    await waitFor(() => expect(fake.seen.some((s) => s.path === "/api/visitor/w1/telepon")).toBe(true));
    expect(waiting.closest("article")?.textContent).toContain("Bayu");
    // Each answer reloads the lists: the button is found in the list as it stands once drawn again.
    const buttonIn = (heading: string, button: string) =>
      waitFor(() => {
        const card = screen.getByRole("heading", { name: heading }).closest("article");
        if (!card) {
          throw new Error(`no card for ${heading}`);
        }
        return within(card as HTMLElement).getByRole("button", { name: button });
      });
    fireEvent.click(await buttonIn("Ditunggu (1)", "Masuk"));
    await waitFor(() => expect(gateWrites().some((s) => s.path === "/api/visitor/gate/check-in")).toBe(true));
    expect(JSON.parse(String(gateWrites().find((s) => s.path.endsWith("check-in"))?.body))).toEqual({
      visitorId: "w2",
    });
    fireEvent.click(await buttonIn("Di dalam sekarang (1)", "Keluar"));
    await waitFor(() => expect(gateWrites().some((s) => s.path.endsWith("check-out"))).toBe(true));
    expect(JSON.parse(String(gateWrites().find((s) => s.path.endsWith("check-out"))?.body))).toEqual({
      visitorId: "v2",
    });
  });

  it("shows a walk-in's photo beside its name, read with the token, and sends the photo taken when registering", async () => {
    vi.stubGlobal(
      "URL",
      Object.assign(URL, { createObjectURL: () => "blob:tamu", revokeObjectURL: () => {} }),
    );
    const photoUrl = "http://127.0.0.1:8787/api/visitor/w1/foto";
    fake.routes["GET /api/visitor"] = {
      status: 200,
      body: {
        items: [visitor({ id: "w1", guestName: "Bayu", status: "menunggu", walkIn: true, photoUrl })],
        nextCursor: null,
      },
    };
    fake.routes["GET /api/visitor/w1/foto"] = { status: 200, body: "png" };
    fake.routes["POST /api/visitor/gate/walk-in"] = {
      status: 201,
      body: visitor({ id: "w9", guestName: "Kurir JNE", status: "menunggu", walkIn: true }),
    };
    fake.routes["POST /api/visitor/w9/foto"] = { status: 200, body: {} };
    open();
    const waiting = (await screen.findByRole("heading", { name: "Menunggu tuan rumah (1)" })).closest(
      "article",
    ) as HTMLElement;
    await waitFor(() =>
      expect(within(waiting).getByAltText("Foto Bayu").getAttribute("src")).toBe("blob:tamu"),
    );
    expect(
      fake.seen.find((s) => s.path === "/api/visitor/w1/foto")?.headers.get("Authorization"),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Tamu datang langsung" }));
    fireEvent.input(screen.getByLabelText("Nama tamu"), { target: { value: "Kurir JNE" } });
    fireEvent.input(screen.getByLabelText("Blok"), { target: { value: "C" } });
    fireEvent.input(screen.getByLabelText("Nomor rumah"), { target: { value: "12" } });
    const photo = new File(["png"], "kurir.png", { type: "image/png" });
    fireEvent.change(screen.getByLabelText("Foto tamu (boleh kosong)"), { target: { files: [photo] } });
    fireEvent.click(screen.getByRole("button", { name: "Catat dan kabari tuan rumah" }));
    expect(await screen.findByText(/Kurir JNE dicatat/)).toBeTruthy();
    const sent = fake.seen.find((s) => s.method === "POST" && s.path === "/api/visitor/w9/foto");
    const form = sent?.body;
    expect(form instanceof FormData && form.get("file")).toBeInstanceOf(File);
    // The registration itself stays JSON: the photo is not in it.
    const walkIn = fake.seen.find((s) => s.path === "/api/visitor/gate/walk-in");
    expect(JSON.parse(String(walkIn?.body))).not.toHaveProperty("photo");
  });

  it("lets a regular visitor in inside their window, and says when they are outside it", async () => {
    fake.routes["GET /api/visitor/regular"] = {
      status: 200,
      body: {
        items: [
          {
            id: "r1",
            name: "Mbak Sri",
            role: "art",
            days: [1, 2, 3, 4, 5],
            fromTime: "07:00",
            untilTime: "17:00",
            admittedNow: true,
          },
          {
            id: "r2",
            name: "Pak Darto",
            role: "sopir",
            days: [6],
            fromTime: "06:00",
            untilTime: "09:00",
            admittedNow: false,
          },
        ],
        nextCursor: null,
      },
    };
    fake.routes["POST /api/visitor/regular/r1/check-in"] = { status: 200, body: {} };
    open();
    const card = (await screen.findByRole("heading", { name: "Tamu tetap" })).closest(
      "article",
    ) as HTMLElement;
    await within(card).findByText("Mbak Sri");
    expect(card.textContent).toContain("Di luar jadwal");
    fireEvent.click(within(card).getByRole("button", { name: "Masuk" }));
    await waitFor(() =>
      expect(fake.seen.some((s) => s.path === "/api/visitor/regular/r1/check-in")).toBe(true),
    );
  });

  it("is not for a resident without gate duty", async () => {
    await signedInAs(resident);
    open();
    expect(screen.getByText(/untuk satpam dan pengurus/)).toBeTruthy();
    await waitFor(() => expect(fake.seen.some((s) => s.path === "/api/visitor")).toBe(false));
  });
});
