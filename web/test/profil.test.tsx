import { fireEvent, render, screen, waitFor, within } from "@testing-library/preact";
import { LocationProvider } from "preact-iso";
import { describe, expect, it, vi } from "vitest";
import * as client from "../src/api/client";
import { gateway } from "../src/screens/iuran";
import { Profil } from "../src/screens/profil";
import { sessionState } from "../src/session";
import { fake, problem, signedInAs, useFakeApi } from "./fake-api";

useFakeApi();

const me = {
  id: "u1",
  name: "Budi Santoso",
  email: "budi@warga.test",
  whatsapp: "6281234560001",
  emailVerified: true,
  whatsappVerified: false,
  unit: { id: "n1", block: "A", number: "1" },
  profileComplete: true,
};
const household = {
  unitId: "n1",
  unit: { id: "n1", block: "A", number: "1" },
  personId: "m1",
  members: [
    { id: "m1", name: "Budi Santoso", nik: "3201********0001", relationship: "kepala_keluarga", isMe: true },
    { id: "m2", name: "Ani Santoso", nik: "3201********0002", relationship: "istri", isMe: false },
  ],
};
const prefs = { push: true, whatsapp: false, email: true, quietHours: { start: "22:00", end: "06:00" } };

function routes() {
  fake.routes["GET /api/user/me"] = { status: 200, body: me };
  fake.routes["/api/kependudukan/household"] = { status: 200, body: household };
  fake.routes["GET /api/kependudukan/household/corrections"] = { status: 200, body: { items: [] } };
  fake.routes["GET /api/user/notification-preferences"] = { status: 200, body: prefs };
}

const open = () =>
  render(
    <LocationProvider>
      <Profil />
    </LocationProvider>,
  );

describe("the profil screen", () => {
  it("tells a moved-out person what their family still owes there, pays it in one checkout and keeps the download", async () => {
    await signedInAs();
    routes();
    fake.routes["GET /api/user/tanggungan"] = {
      status: 200,
      body: {
        items: [
          {
            tenant: { slug: "rt04-jatimulya", name: "RT 04 / RW 07 Jatimulya", type: "RT" },
            graceUntil: "2026-04-19T05:00:00.000Z",
            familyId: "k1",
            headName: "Budi Santoso",
            owed: 85_000,
            bills: [{ id: "b1" }, { id: "b2" }],
          },
        ],
      },
    };
    fake.routes["POST /api/user/tanggungan/bayar"] = {
      status: 200,
      body: {
        orderId: "iuran-1",
        paymentUrl: "https://pay.test/1",
        amount: 85_000,
        expiresAt: "x",
        items: [],
      },
    };
    const opened = vi.spyOn(gateway, "open").mockImplementation(() => {});
    open();
    const notice = (
      await screen.findByRole("heading", { name: /Anda tercatat pindah dari RT 04 \/ RW 07 Jatimulya/ })
    ).closest("article") as HTMLElement;
    expect(notice.textContent).toContain("sisa tanggungan Rp85.000");
    expect(within(notice).getByRole("button", { name: "Unduh data saya" })).toBeTruthy();
    fireEvent.click(within(notice).getByRole("button", { name: "Bayar Rp85.000 sekaligus" }));
    await waitFor(() => expect(opened).toHaveBeenCalledWith("https://pay.test/1"));
    const sent = fake.seen.find((s) => s.method === "POST" && s.path === "/api/user/tanggungan/bayar");
    expect(JSON.parse(sent?.body as string)).toEqual({ tenant: "rt04-jatimulya", billIds: ["b1", "b2"] });
  });

  it("shows no move-out notice to someone who has not moved out", async () => {
    await signedInAs();
    routes();
    fake.routes["GET /api/user/tanggungan"] = { status: 200, body: { items: [] } };
    open();
    await screen.findByLabelText("Nama lengkap");
    expect(screen.queryByText(/tercatat pindah/)).toBeNull();
  });

  it("saves the profile; a refused WhatsApp number is shown beside its field and what was typed stays", async () => {
    await signedInAs();
    routes();
    let refuse = true;
    fake.routes["PUT /api/user/profile"] = () =>
      refuse
        ? {
            status: 400,
            body: {
              ...(problem(400, "invalid_input", "Data tidak valid").body as object),
              errors: [{ field: "whatsapp", message: "Nomor WhatsApp tidak valid" }],
            },
          }
        : { status: 200, body: { ...me, name: "Budi S." } };
    open();
    const name = (await screen.findByLabelText("Nama lengkap")) as HTMLInputElement;
    fireEvent.input(name, { target: { value: "Budi S." } });
    fireEvent.input(screen.getByLabelText("Nomor WhatsApp"), { target: { value: "0812" } });
    fireEvent.click(screen.getByRole("button", { name: "Simpan profil" }));
    const wa = screen.getByLabelText("Nomor WhatsApp") as HTMLInputElement;
    await waitFor(() => expect(wa.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(wa.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Nomor WhatsApp tidak valid",
    );
    expect(name.value).toBe("Budi S.");
    expect(wa.value).toBe("0812");
    refuse = false;
    fireEvent.click(screen.getByRole("button", { name: "Simpan profil" }));
    expect(await screen.findByText("Profil tersimpan.")).toBeTruthy();
    const sent = fake.seen.filter((s) => s.method === "PUT" && s.path === "/api/user/profile");
    expect(JSON.parse(sent[1]?.body as string)).toEqual({
      fullName: "Budi S.",
      whatsapp: "0812",
      block: "A",
      houseNumber: "1",
    });
  });

  it("lets a member who signs in by a code create a password; one with a password is not offered it", async () => {
    await signedInAs();
    routes();
    fake.routes["GET /api/user/me"] = { status: 200, body: { ...me, email: null, hasPassword: false } };
    let short = true;
    fake.routes["POST /api/user/password"] = () =>
      short ? problem(400, "password_too_short", "Kata sandi terlalu pendek") : { status: 204, body: null };
    const view = open();
    const field = (await screen.findByLabelText("Kata sandi baru (minimal 8 karakter)")) as HTMLInputElement;
    fireEvent.input(field, { target: { value: "pendek12" } });
    fireEvent.click(screen.getByRole("button", { name: "Buat kata sandi" }));
    expect(await screen.findByText("Kata sandi terlalu pendek")).toBeTruthy();
    short = false;
    fireEvent.click(screen.getByRole("button", { name: "Buat kata sandi" }));
    expect(
      await screen.findByText("Kata sandi dibuat. Berikutnya Anda bisa masuk dengan kata sandi ini."),
    ).toBeTruthy();
    const sent = fake.seen.filter((s) => s.method === "POST" && s.path === "/api/user/password");
    expect(JSON.parse(sent[1]?.body as string)).toEqual({ newPassword: "pendek12" });
    view.unmount();

    fake.routes["GET /api/user/me"] = { status: 200, body: { ...me, hasPassword: true } };
    open();
    await screen.findByLabelText("Nama lengkap");
    expect(screen.queryByRole("button", { name: "Buat kata sandi" })).toBeNull();
  });

  it("asks for a house instead of setting it: the waiting request is shown and prefilled", async () => {
    await signedInAs();
    routes();
    const newcomer = {
      ...me,
      unit: null,
      profileComplete: false,
      unitRequest: { id: "c9", block: "B", number: "2", status: "diajukan", reason: null },
    };
    fake.routes["GET /api/user/me"] = { status: 200, body: newcomer };
    fake.routes["PUT /api/user/profile"] = (sent) => {
      const body = JSON.parse(sent.body as string) as { block: string; houseNumber: string };
      return {
        status: 200,
        body: { ...newcomer, unitRequest: { ...newcomer.unitRequest, block: body.block, number: "3" } },
      };
    };
    open();
    expect(await screen.findByText("Menunggu persetujuan sekretaris: Blok B No. 2")).toBeTruthy();
    expect(screen.getByText("Belum ada rumah yang tercatat untuk Anda.")).toBeTruthy();
    const number = screen.getByLabelText("Nomor rumah") as HTMLInputElement;
    expect(number.value).toBe("2");
    fireEvent.input(number, { target: { value: "3" } });
    fireEvent.click(screen.getByRole("button", { name: "Simpan profil" }));
    expect(await screen.findByText("Menunggu persetujuan sekretaris: Blok B No. 3")).toBeTruthy();
    const sent = fake.seen.find((s) => s.method === "PUT" && s.path === "/api/user/profile");
    expect(JSON.parse(sent?.body as string)).toMatchObject({ block: "B", houseNumber: "3" });
  });

  it("shows a declined house request with its reason", async () => {
    await signedInAs();
    routes();
    fake.routes["GET /api/user/me"] = {
      status: 200,
      body: {
        ...me,
        unitRequest: { id: "c8", block: "C", number: "4", status: "ditolak", reason: "Bukan penghuni" },
      },
    };
    open();
    expect(await screen.findByText("Permintaan Blok C No. 4 ditolak: Bukan penghuni")).toBeTruthy();
    expect(screen.getByText("Rumah tercatat: Blok A No. 1")).toBeTruthy();
  });

  it("marks an unverified number and proves it with the code sent to it; a wrong code is said and can be retyped", async () => {
    await signedInAs();
    routes();
    fake.routes["POST /api/user/contacts/verify/request"] = {
      status: 202,
      body: { channel: "whatsapp", expiresInSeconds: 600 },
    };
    let wrong = true;
    fake.routes["POST /api/user/contacts/verify"] = () =>
      wrong
        ? problem(400, "contact_code_invalid", "Kode salah, kedaluwarsa, atau sudah dipakai; minta kode baru")
        : {
            status: 200,
            body: { channel: "whatsapp", contact: me.whatsapp, verifiedAt: "2026-11-29T00:00:00Z" },
          };
    open();
    expect(await screen.findByText("belum terverifikasi")).toBeTruthy();
    // The email is proven already: only its mark, no verify button for it.
    expect(screen.getAllByText("terverifikasi")).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: "Kirim kode verifikasi" }));
    const code = (await screen.findByLabelText("Kode verifikasi")) as HTMLInputElement;
    fireEvent.input(code, { target: { value: "123456" } });
    fireEvent.click(screen.getByRole("button", { name: "Verifikasi" }));
    expect((await screen.findByText(/Kode salah/)).textContent).toContain("minta kode baru");
    expect(code.value).toBe("123456");
    wrong = false;
    fireEvent.click(screen.getByRole("button", { name: "Verifikasi" }));
    await waitFor(() => expect(screen.queryByText("belum terverifikasi")).toBeNull());
    expect(screen.getAllByText("terverifikasi")).toHaveLength(2);
    const asked = fake.seen.filter((s) => s.path.startsWith("/api/user/contacts/verify"));
    expect(asked.map((s) => [s.path, JSON.parse(s.body as string)])).toEqual([
      ["/api/user/contacts/verify/request", { channel: "whatsapp" }],
      ["/api/user/contacts/verify", { channel: "whatsapp", code: "123456" }],
      ["/api/user/contacts/verify", { channel: "whatsapp", code: "123456" }],
    ]);
  });

  it("shows the household with the caller marked, and sends a correction with the same key when retried", async () => {
    await signedInAs();
    routes();
    let fail = true;
    fake.routes["POST /api/kependudukan/household/corrections"] = () =>
      fail
        ? problem(500, "internal", "Sedang sibuk")
        : {
            status: 201,
            body: { id: "c1", memberName: "Ani Santoso", field: "name", value: "Ani S.", status: "diajukan" },
          };
    open();
    const card = await screen.findByRole("article", { name: "Keluarga saya" });
    expect(await within(card).findByText("Anda")).toBeTruthy();
    expect(within(card).getByText("Ani Santoso")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Minta perbaikan data keluarga" }));
    fireEvent.input(screen.getByLabelText("Anggota keluarga"), { target: { value: "m2" } });
    fireEvent.input(screen.getByLabelText("Seharusnya"), { target: { value: "Ani S." } });
    fireEvent.click(screen.getByRole("button", { name: "Kirim permintaan" }));
    expect((await within(card).findByRole("alert")).textContent).toBe("Sedang sibuk");
    expect((screen.getByLabelText("Seharusnya") as HTMLInputElement).value).toBe("Ani S.");
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Kirim permintaan" }));
    expect(await screen.findByText(/Permintaan terkirim/)).toBeTruthy();
    const sent = fake.seen.filter((s) => s.method === "POST" && s.path.endsWith("/household/corrections"));
    const keys = new Set(sent.map((s) => s.headers.get("Idempotency-Key")));
    expect(keys.size).toBe(1);
    expect(JSON.parse(sent.at(-1)?.body as string)).toEqual({
      memberId: "m2",
      field: "name",
      value: "Ani S.",
    });
  });

  it("without a complete profile says the household comes after it", async () => {
    await signedInAs();
    routes();
    fake.routes["/api/kependudukan/household"] = problem(409, "profile_incomplete", "Lengkapi profil");
    open();
    expect(await screen.findByText("Data keluarga muncul setelah profil Anda lengkap.")).toBeTruthy();
  });

  it("saves the notification channels as toggled", async () => {
    await signedInAs();
    routes();
    fake.routes["PUT /api/user/notification-preferences"] = (sent) => ({
      status: 200,
      body: JSON.parse(sent.body as string),
    });
    open();
    const whatsapp = (await screen.findByRole("checkbox", { name: "WhatsApp" })) as HTMLInputElement;
    expect(whatsapp.checked).toBe(false);
    fireEvent.click(whatsapp);
    fireEvent.click(screen.getByRole("button", { name: "Simpan notifikasi" }));
    expect(await screen.findByText("Pengaturan notifikasi tersimpan.")).toBeTruthy();
    const sent = fake.seen.find((s) => s.method === "PUT" && s.path === "/api/user/notification-preferences");
    expect(JSON.parse(sent?.body as string)).toEqual({ ...prefs, whatsapp: true });
  });

  it("downloads the personal data export as a file", async () => {
    await signedInAs();
    routes();
    fake.routes["/api/user/data-export"] = { status: 200, body: { account: { id: "u1" } } };
    const saved = vi.spyOn(client, "saveBlob").mockImplementation(() => {});
    open();
    fireEvent.click(await screen.findByRole("button", { name: "Unduh data saya" }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(saved.mock.calls[0]?.[1]).toBe("warga-data-saya.json");
    saved.mockRestore();
  });

  it("signs out everywhere after asking once more, and the session here ends too", async () => {
    await signedInAs();
    routes();
    fake.routes["POST /api/auth/logout/others"] = { status: 200, body: { ended: 1 } };
    fake.routes["POST /api/auth/logout"] = { status: 204, body: null };
    open();
    fireEvent.click(await screen.findByRole("button", { name: "Keluar dari semua perangkat" }));
    expect(fake.seen.some((s) => s.path.startsWith("/api/auth/logout"))).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Ya, keluar dari semua perangkat" }));
    await waitFor(() => expect(sessionState().status).toBe("signedOut"));
    // The others first, then this one (whose sign-out clears the cookie).
    expect(fake.seen.filter((s) => s.path.startsWith("/api/auth/logout")).map((s) => s.path)).toEqual([
      "/api/auth/logout/others",
      "/api/auth/logout",
    ]);
  });
});
