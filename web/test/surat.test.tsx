import { fireEvent, screen, waitFor } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { Surat } from "../src/screens/surat";
import { openArea } from "./area";
import { fake, problem, signedInAs, useFakeApi } from "./fake-api";

useFakeApi();

const JENIS = {
  items: [
    {
      code: "domisili",
      name: "Surat Keterangan Domisili",
      description: "Keterangan domisili.",
      validityDays: 180,
      identity: [{ name: "nama", label: "Nama" }],
      fields: [
        {
          name: "sejak",
          label: "Berdomisili sejak",
          type: "date",
          required: true,
          options: null,
          requiredUnless: null,
          pattern: null,
        },
        {
          name: "alamatSebelumnya",
          label: "Alamat sebelumnya",
          type: "textarea",
          required: false,
          options: null,
          requiredUnless: null,
          pattern: null,
        },
      ],
    },
    {
      code: "sktm",
      name: "Surat Keterangan Tidak Mampu (SKTM)",
      description: "Keterangan tidak mampu.",
      validityDays: 90,
      identity: [],
      fields: [
        {
          name: "penghasilanBulanan",
          label: "Penghasilan keluarga per bulan (Rp)",
          type: "money",
          required: true,
          options: null,
          requiredUnless: null,
          pattern: null,
        },
        {
          name: "ditujukanKepada",
          label: "Ditujukan kepada",
          type: "select",
          required: true,
          options: [
            { value: "rumah_sakit", label: "Rumah sakit / puskesmas" },
            { value: "sekolah", label: "Sekolah / beasiswa" },
          ],
          requiredUnless: null,
          pattern: null,
        },
        {
          name: "anggota",
          label: "Anggota keluarga",
          type: "members",
          required: true,
          options: null,
          requiredUnless: null,
          pattern: null,
        },
      ],
    },
  ],
};
const HOUSEHOLD = {
  unitId: "n1",
  personId: "p1",
  members: [
    { id: "p1", name: "Budi Santoso", relationship: "kepala_keluarga", livingStatus: "hidup", isMe: true },
    { id: "p2", name: "Siti Aminah", relationship: "istri", livingStatus: "hidup", isMe: false },
  ],
};
const letter = (over: Record<string, unknown> = {}) => ({
  id: "L1",
  jenis: "domisili",
  jenisName: "Surat Keterangan Domisili",
  onBehalfOf: "p1",
  subjectName: "Budi Santoso",
  keperluan: "Buka rekening",
  fields: { sejak: "2019-03-01" },
  status: "diajukan",
  nomorSurat: null,
  tanggalSurat: null,
  note: null,
  pdfAvailable: false,
  history: [{ status: "diajukan", note: null, byStaff: false, createdAt: "2026-11-20T01:00:00Z" }],
  createdAt: "2026-11-20T01:00:00Z",
  updatedAt: "2026-11-20T01:00:00Z",
  ...over,
});
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.input(input(label), { target: { value } });

describe("requesting a letter", () => {
  it("builds each type's form from the fields the API declares and sends them typed as the API reads them", async () => {
    await signedInAs();
    fake.routes["/api/surat/jenis"] = { status: 200, body: JENIS };
    fake.routes["/api/kependudukan/household"] = { status: 200, body: HOUSEHOLD };
    fake.routes["POST /api/surat"] = { status: 201, body: letter({ id: "L9", jenis: "sktm" }) };
    openArea("/surat", Surat, "/surat/baru");
    await screen.findByLabelText("Jenis surat");
    type("Jenis surat", "sktm");
    // The money field asks for digits; the select offers the type's own options; members are checkboxes.
    expect(input("Penghasilan keluarga per bulan (Rp)").getAttribute("inputmode")).toBe("numeric");
    expect(screen.getByRole("option", { name: "Sekolah / beasiswa" })).toBeTruthy();
    type("Keperluan", "Berobat ke RSUD");
    type("Penghasilan keluarga per bulan (Rp)", "1.500.000");
    type("Ditujukan kepada", "rumah_sakit");
    fireEvent.click(screen.getByRole("checkbox", { name: "Siti Aminah" }));
    // The letter may be for another living member of the household.
    type("Surat untuk", "p2");
    fireEvent.click(screen.getByRole("button", { name: "Kirim permintaan" }));
    await waitFor(() => expect(location.pathname).toBe("/surat/L9"));
    const sent = fake.seen.find((s) => s.method === "POST" && s.path === "/api/surat");
    expect(JSON.parse(String(sent?.body))).toEqual({
      jenis: "sktm",
      onBehalfOf: "p2",
      keperluan: "Berobat ke RSUD",
      fields: { penghasilanBulanan: 1500000, ditujukanKepada: "rumah_sakit", anggota: ["p2"] },
    });
  });

  it("shows a field's problem beside it, keeps what was typed, and a retry sends the same Idempotency-Key", async () => {
    await signedInAs();
    fake.routes["/api/surat/jenis"] = { status: 200, body: JENIS };
    // Without a household (profile not complete) the resident can still ask for themself.
    fake.routes["/api/kependudukan/household"] = problem(409, "profile_incomplete", "Lengkapi profil");
    let calls = 0;
    fake.routes["POST /api/surat"] = () =>
      ++calls === 1
        ? {
            status: 400,
            body: {
              ...(problem(400, "invalid_fields", "Isian surat belum benar").body as object),
              errors: [{ field: "fields.sejak", message: "Tanggal tidak valid" }],
            },
          }
        : { status: 201, body: letter() };
    openArea("/surat", Surat, "/surat/baru?jenis=domisili");
    await screen.findByLabelText("Berdomisili sejak");
    expect(screen.getAllByRole("option", { name: /Saya sendiri|Siti/ }).map((o) => o.textContent)).toEqual([
      "Saya sendiri",
    ]);
    type("Keperluan", "Buka rekening");
    type("Berdomisili sejak", "2019-03-01");
    // An optional field left empty is not sent at all.
    fireEvent.click(screen.getByRole("button", { name: "Kirim permintaan" }));
    expect(await screen.findByText("Tanggal tidak valid")).toBeTruthy();
    expect(input("Berdomisili sejak").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("alert").textContent).toBe("Isian surat belum benar");
    expect(input("Keperluan").value).toBe("Buka rekening");
    fireEvent.click(screen.getByRole("button", { name: "Kirim permintaan" }));
    await waitFor(() => expect(location.pathname).toBe("/surat/L1"));
    const posts = fake.seen.filter((s) => s.method === "POST" && s.path === "/api/surat");
    expect(posts).toHaveLength(2);
    expect(JSON.parse(String(posts[0]?.body)).fields).toEqual({ sejak: "2019-03-01" });
    expect(posts[1]?.headers.get("Idempotency-Key")).toBe(posts[0]?.headers.get("Idempotency-Key"));
  });
});

describe("my letters", () => {
  it("lists them with their status, and says so when there are none or the list fails", async () => {
    await signedInAs();
    fake.routes["/api/surat/mine"] = {
      status: 200,
      body: { items: [letter({ status: "perlu_perbaikan" })] },
    };
    const view = openArea("/surat", Surat, "/surat");
    expect(await screen.findByRole("link", { name: /Surat Keterangan Domisili/ })).toBeTruthy();
    expect(screen.getByText("perlu perbaikan")).toBeTruthy();
    view.unmount();
    fake.routes["/api/surat/mine"] = { status: 200, body: { items: [] } };
    const empty = openArea("/surat", Surat, "/surat");
    expect(await screen.findByText("Anda belum pernah mengajukan surat.")).toBeTruthy();
    empty.unmount();
    fake.routes["/api/surat/mine"] = problem(403, "feature_disabled", "Layanan surat tidak aktif");
    openArea("/surat", Surat, "/surat");
    expect((await screen.findByRole("alert")).textContent).toContain("Layanan surat tidak aktif");
  });
});

describe("one letter", () => {
  it("sent back for correction: shows the secretary's note and resubmits the corrected fields", async () => {
    await signedInAs();
    fake.routes["/api/surat/jenis"] = { status: 200, body: JENIS };
    fake.routes["/api/kependudukan/household"] = { status: 200, body: HOUSEHOLD };
    fake.routes["/api/surat/L1"] = {
      status: 200,
      body: letter({ status: "perlu_perbaikan", note: "Tanggal domisili salah" }),
    };
    fake.routes["POST /api/surat/L1/resubmit"] = { status: 200, body: letter() };
    openArea("/surat", Surat, "/surat/L1");
    expect(await screen.findByText("Tanggal domisili salah")).toBeTruthy();
    // The form comes filled with what was sent.
    expect(((await screen.findByLabelText("Berdomisili sejak")) as HTMLInputElement).value).toBe(
      "2019-03-01",
    );
    type("Berdomisili sejak", "2018-01-15");
    fireEvent.click(screen.getByRole("button", { name: "Kirim ulang" }));
    await waitFor(() => expect(fake.seen.some((s) => s.path === "/api/surat/L1/resubmit")).toBe(true));
    const sent = fake.seen.find((s) => s.path === "/api/surat/L1/resubmit");
    expect(JSON.parse(String(sent?.body))).toEqual({
      keperluan: "Buka rekening",
      fields: { sejak: "2018-01-15" },
    });
  });

  it("finished: downloads the PDF; a renderer that is down is said, not swallowed", async () => {
    await signedInAs();
    fake.routes["/api/surat/L1"] = {
      status: 200,
      body: letter({ status: "selesai", nomorSurat: "001/SKD/XI/2026", pdfAvailable: true }),
    };
    let pdfUp = false;
    fake.routes["/api/surat/L1/pdf"] = () =>
      pdfUp ? { status: 200, body: "%PDF-1.7" } : problem(409, "letter_not_ready", "Surat belum siap");
    const created = vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:x");
    // The browser's own download: here only that it was asked for (happy-dom would navigate instead).
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    openArea("/surat", Surat, "/surat/L1");
    fireEvent.click(await screen.findByRole("button", { name: "Unduh PDF" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Surat belum siap");
    pdfUp = true;
    fireEvent.click(screen.getByRole("button", { name: "Unduh PDF" }));
    await waitFor(() => expect(created).toHaveBeenCalled());
    expect(screen.queryByRole("button", { name: "Batalkan permintaan" })).toBeNull();
    expect(clicked).toHaveBeenCalled();
    created.mockRestore();
    clicked.mockRestore();
  });

  it("finished but waiting for the RW: says so and offers no download", async () => {
    await signedInAs();
    fake.routes["/api/surat/L1"] = {
      status: 200,
      body: letter({
        status: "selesai",
        nomorSurat: "001/SKD/XI/2026",
        pdfAvailable: false,
        awaitingRw: true,
        history: [
          { status: "diajukan", note: null, byStaff: false, createdAt: "2026-11-20T01:00:00Z" },
          { status: "selesai", note: null, byStaff: true, createdAt: "2026-11-21T01:00:00Z" },
        ],
      }),
    };
    openArea("/surat", Surat, "/surat/L1");
    expect((await screen.findAllByText("Menunggu persetujuan RW")).length).toBeGreaterThan(0);
    expect(screen.getByRole("status").textContent).toContain("menunggu persetujuan RW");
    expect(screen.queryByRole("button", { name: "Unduh PDF" })).toBeNull();
    // Its history does not call it ready to download either.
    expect(screen.getByText("selesai, menunggu persetujuan RW")).toBeTruthy();
    expect(screen.queryByText("selesai, siap diunduh")).toBeNull();
  });

  it("cancels a request after asking once, with the reason given", async () => {
    await signedInAs();
    fake.routes["/api/surat/L1"] = { status: 200, body: letter() };
    fake.routes["POST /api/surat/L1/cancel"] = { status: 200, body: letter({ status: "dibatalkan" }) };
    openArea("/surat", Surat, "/surat/L1");
    fireEvent.click(await screen.findByRole("button", { name: "Batalkan permintaan" }));
    type("Alasan (boleh dikosongkan)", "Sudah tidak perlu");
    fireEvent.click(screen.getByRole("button", { name: "Ya, batalkan" }));
    await waitFor(() => expect(fake.seen.some((s) => s.path === "/api/surat/L1/cancel")).toBe(true));
    const sent = fake.seen.find((s) => s.path === "/api/surat/L1/cancel");
    expect(JSON.parse(String(sent?.body))).toEqual({ reason: "Sudah tidak perlu" });
  });
});
