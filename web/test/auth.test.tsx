import { fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { LocationProvider, Route, Router } from "preact-iso";
import { describe, expect, it } from "vitest";
import { SignInCode, WhatsappSignIn } from "../src/screens/auth/Code";
import { Daftar } from "../src/screens/auth/Daftar";
import { Join } from "../src/screens/auth/Join";
import { OAuthCallback } from "../src/screens/auth/OAuthCallback";
import { Reset } from "../src/screens/auth/Reset";
import { SignIn } from "../src/screens/auth/SignIn";
import { type Answer, fake, problem, useFakeApi } from "./fake-api";

useFakeApi();

/** Renders `screen` at `url`, as the app's router would. */
function at(url: string, path: string, Screen: () => preact.JSX.Element | null) {
  history.replaceState(null, "", url);
  return render(
    <LocationProvider>
      <Router>
        <Route path={path} component={Screen} />
        <Route default component={() => <p>elsewhere</p>} />
      </Router>
    </LocationProvider>,
  );
}

const sentBody = (path: string, nth = 0) =>
  JSON.parse(String(fake.seen.filter((s) => s.path === path)[nth]?.body ?? "null"));
const sentKey = (path: string, nth = 0) =>
  fake.seen.filter((s) => s.path === path)[nth]?.headers.get("Idempotency-Key");

/** A problem naming the field it is about, as the API's 400s do. */
const fieldProblem = (code: string, detail: string, field: string, message: string): Answer => ({
  status: 400,
  body: { ...(problem(400, code, detail).body as object), errors: [{ field, message }] },
});

const invitation = {
  kind: "invitation",
  hasAccount: false,
  name: "Satria",
  signInWith: { email: "satria@contoh.test", whatsapp: null },
  tenant: { slug: "rt-01-sukamaju", name: "RT 01 Sukamaju", type: "RT" },
  roles: ["satpam"],
  resident: false,
};

describe("an invitation link (/join, /reset-password)", () => {
  it("shows the community and duties first, then sets the password and signs in to that community", async () => {
    fake.routes["POST /api/auth/join/preview"] = { status: 200, body: invitation };
    fake.routes["POST /api/auth/reset-password"] = { status: 204, body: null };
    fake.routes["POST /api/auth/login"] = {
      status: 200,
      body: {
        accessToken: "a",
        expiresIn: 900,
        user: { ...invitation, id: "u9", email: "satria@contoh.test" },
      },
    };
    at("/join?token=tok123", "/join", Join);
    // The token leaves the address bar at once; the screen keeps it.
    expect(location.search).toBe("");
    await screen.findByText("RT 01 Sukamaju");
    expect(screen.getByText("petugas keamanan (satpam)")).toBeTruthy();
    expect(sentBody("/api/auth/join/preview")).toEqual({ token: "tok123" });

    fireEvent.input(screen.getByLabelText("Kata sandi baru (minimal 8 karakter)"), {
      target: { value: "sandi-baru-1" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Bergabung" }));
    await waitFor(() => expect(location.pathname).toBe("/"));
    expect(sentBody("/api/auth/reset-password")).toEqual({ token: "tok123", password: "sandi-baru-1" });
    expect(sentBody("/api/auth/login")).toEqual({
      email: "satria@contoh.test",
      password: "sandi-baru-1",
      tenant: "rt-01-sukamaju",
    });
  });

  it("shows a refused password beside the field, keeps it, and a retry sends the same Idempotency-Key", async () => {
    fake.routes["POST /api/auth/join/preview"] = { status: 200, body: invitation };
    fake.routes["POST /api/auth/reset-password"] = fieldProblem(
      "password_too_short",
      "Kata sandi minimal 8 karakter.",
      "password",
      "minimal 8 karakter",
    );
    at("/reset-password?token=tok456", "/reset-password", Reset);
    const field = (await screen.findByLabelText("Kata sandi baru (minimal 8 karakter)")) as HTMLInputElement;
    fireEvent.input(field, { target: { value: "sandi-lemah" } });
    fireEvent.click(screen.getByRole("button", { name: "Bergabung" }));
    const error = await screen.findByText("minimal 8 karakter");
    expect(field.getAttribute("aria-describedby")).toBe(error.id);
    expect(field.value).toBe("sandi-lemah");
    fireEvent.click(screen.getByRole("button", { name: "Bergabung" }));
    await waitFor(() =>
      expect(fake.seen.filter((s) => s.path === "/api/auth/reset-password")).toHaveLength(2),
    );
    expect(sentKey("/api/auth/reset-password", 1)).toBe(sentKey("/api/auth/reset-password", 0));
  });

  it("says plainly when the link was used or has expired", async () => {
    fake.routes["POST /api/auth/join/preview"] = problem(
      409,
      "token_used",
      "Tautan ini sudah pernah dipakai.",
    );
    at("/join?token=old", "/join", Join);
    expect((await screen.findByRole("alert")).textContent).toContain("Tautan ini sudah pernah dipakai.");
  });

  it("says in Indonesian that a withdrawn or replaced invitation needs a new one (410 invitation_retired)", async () => {
    fake.routes["POST /api/auth/join/preview"] = problem(
      410,
      "invitation_retired",
      "Undangan ini sudah ditarik atau diganti undangan yang lebih baru.",
    );
    at("/join?token=lama", "/join", Join);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Undangan ini sudah ditarik atau diganti dengan undangan yang lebih baru. Minta pengurus mengirim undangan baru.",
    );
    expect(screen.queryByRole("button")).toBeNull();
  });
});

describe("a password reset link (/reset-password)", () => {
  it("checks the two passwords match before sending, then sets it and opens sign-in with a notice", async () => {
    fake.routes["POST /api/auth/join/preview"] = problem(400, "token_invalid", "Tautan ini tidak berlaku.");
    fake.routes["POST /api/auth/reset-password"] = { status: 204, body: null };
    at("/reset-password?token=reset1", "/reset-password", Reset);
    const first = await screen.findByLabelText("Kata sandi baru (minimal 8 karakter)");
    fireEvent.input(first, { target: { value: "sandi-baru-1" } });
    fireEvent.input(screen.getByLabelText("Ulangi kata sandi baru"), { target: { value: "sandi-baru-2" } });
    fireEvent.click(screen.getByRole("button", { name: "Simpan kata sandi" }));
    await screen.findByText("Kedua kata sandi tidak sama.");
    expect(fake.seen.some((s) => s.path === "/api/auth/reset-password")).toBe(false);

    fireEvent.input(screen.getByLabelText("Ulangi kata sandi baru"), { target: { value: "sandi-baru-1" } });
    fireEvent.click(screen.getByRole("button", { name: "Simpan kata sandi" }));
    await waitFor(() => expect(`${location.pathname}${location.search}`).toBe("/login?reset=1"));
    expect(sentBody("/api/auth/reset-password")).toEqual({ token: "reset1", password: "sandi-baru-1" });
  });

  it("offers a new link when the reset link has expired", async () => {
    fake.routes["POST /api/auth/join/preview"] = problem(
      400,
      "token_expired",
      "Tautan ini sudah kedaluwarsa.",
    );
    at("/reset-password?token=late", "/reset-password", Reset);
    expect((await screen.findByRole("alert")).textContent).toContain("kedaluwarsa");
    expect(screen.getByRole("link", { name: "Minta tautan baru" }).getAttribute("href")).toBe(
      "/forgot-password",
    );
  });
});

describe("signing in with Google", () => {
  it("shows the button only where the API says Google is configured", async () => {
    fake.routes["GET /api/auth/providers"] = { status: 200, body: { providers: [] } };
    const { unmount } = at("/login", "/login", SignIn);
    await waitFor(() => expect(fake.seen.some((s) => s.path === "/api/auth/providers")).toBe(true));
    expect(screen.queryByRole("link", { name: "Masuk dengan Google" })).toBeNull();
    unmount();

    fake.routes["GET /api/auth/providers"] = { status: 200, body: { providers: [{ name: "google" }] } };
    at("/login?tenant=rt-02", "/login", SignIn);
    const button = await screen.findByRole("link", { name: "Masuk dengan Google" });
    expect(button.getAttribute("href")).toBe("/api/auth/oauth/google?tenant=rt-02");
  });

  it("exchanges the callback's code for a session and goes home", async () => {
    fake.routes["POST /api/auth/oauth/exchange"] = {
      status: 200,
      body: { accessToken: "a", expiresIn: 900, user: { ...invitation, id: "u1", email: "g@contoh.test" } },
    };
    at("/auth/callback?code=kode1", "/auth/callback", OAuthCallback);
    await waitFor(() => expect(location.pathname).toBe("/"));
    expect(sentBody("/api/auth/oauth/exchange")).toEqual({ code: "kode1" });
  });

  it("tells why when the callback reports an error", async () => {
    at("/auth/callback?error=account_not_found", "/auth/callback", OAuthCallback);
    expect((await screen.findByRole("alert")).textContent).toContain("belum terdaftar di Warga");
    expect(location.search).toBe("");
  });
});

describe("signing in without email (issue 45)", () => {
  const session = {
    status: 200,
    body: { accessToken: "a", expiresIn: 900, user: { ...invitation, id: "u7", email: null } },
  };

  it("offers both ways from the sign-in screen", async () => {
    fake.routes["GET /api/auth/providers"] = { status: 200, body: { providers: [] } };
    at("/login?tenant=rt-02", "/login", SignIn);
    const whatsapp = await screen.findByRole("link", { name: "Masuk dengan kode WhatsApp" });
    expect(whatsapp.getAttribute("href")).toBe("/login/whatsapp?tenant=rt-02");
    const code = screen.getByRole("link", { name: "Punya kode masuk dari pengurus?" });
    expect(code.getAttribute("href")).toBe("/auth/code");
  });

  it("asks for a WhatsApp code, then signs in with it", async () => {
    fake.routes["POST /api/auth/otp/request"] = { status: 202, body: { status: "accepted" } };
    fake.routes["POST /api/auth/otp/verify"] = session;
    at("/login/whatsapp", "/login/whatsapp", WhatsappSignIn);
    fireEvent.input(screen.getByLabelText("Nomor WhatsApp"), { target: { value: "081234567890" } });
    fireEvent.click(screen.getByRole("button", { name: "Kirim kode" }));
    const code = await screen.findByLabelText("Kode 6 angka");
    expect(sentBody("/api/auth/otp/request")).toEqual({ whatsapp: "081234567890" });
    expect(screen.getByRole("status").textContent).toContain("WhatsApp");
    fireEvent.input(code, { target: { value: "123456" } });
    fireEvent.click(screen.getByRole("button", { name: "Masuk" }));
    await waitFor(() => expect(location.pathname).toBe("/"));
    expect(sentBody("/api/auth/otp/verify")).toEqual({ whatsapp: "081234567890", code: "123456" });
  });

  it("tells a wrong WhatsApp code and stays", async () => {
    fake.routes["POST /api/auth/otp/request"] = { status: 202, body: { status: "accepted" } };
    fake.routes["POST /api/auth/otp/verify"] = problem(401, "code_invalid", "wrong");
    at("/login/whatsapp", "/login/whatsapp", WhatsappSignIn);
    fireEvent.input(screen.getByLabelText("Nomor WhatsApp"), { target: { value: "081234567890" } });
    fireEvent.click(screen.getByRole("button", { name: "Kirim kode" }));
    fireEvent.input(await screen.findByLabelText("Kode 6 angka"), { target: { value: "000000" } });
    fireEvent.click(screen.getByRole("button", { name: "Masuk" }));
    await screen.findByRole("alert");
    expect(location.pathname).toBe("/login/whatsapp");
  });

  it("signs in with the officer's code from its QR link, which leaves the address bar at once", async () => {
    fake.routes["POST /api/auth/code/redeem"] = session;
    at("/auth/code?code=ABCD-EFGH-JKMN", "/auth/code", SignInCode);
    await waitFor(() => expect(location.pathname).toBe("/"));
    expect(sentBody("/api/auth/code/redeem")).toEqual({ code: "ABCD-EFGH-JKMN" });
  });

  it("takes a typed officer's code and says when it was used", async () => {
    fake.routes["POST /api/auth/code/redeem"] = problem(401, "token_used", "used");
    at("/auth/code", "/auth/code", SignInCode);
    fireEvent.input(screen.getByLabelText("Kode masuk"), { target: { value: "abcd efgh jkmn" } });
    fireEvent.click(screen.getByRole("button", { name: "Masuk" }));
    await screen.findByRole("alert");
    expect(sentBody("/api/auth/code/redeem")).toEqual({ code: "abcd efgh jkmn" });
    expect(location.pathname).toBe("/auth/code");
  });
});

describe("the public application (/daftar/:slug)", () => {
  const fill = (label: string, value: string) =>
    fireEvent.input(screen.getByLabelText(label), { target: { value } });

  it("sends what was typed (optional fields left out), keeps it on a refusal shown beside the field, then says what happens next", async () => {
    let answer = fieldProblem("invalid_input", "Periksa isian.", "whatsapp", "bukan nomor ponsel Indonesia");
    fake.routes["POST /api/public/tenants/rt-01-sukamaju/applications"] = () => answer;
    at("/daftar/rt-01-sukamaju", "/daftar/:slug", Daftar);
    fill("Nama lengkap", "Dewi Pendatang");
    fill("Nomor WhatsApp", "12345");
    fill("Blok", "C");
    fill("Nomor rumah", "12");
    fireEvent.click(screen.getByRole("button", { name: "Kirim pendaftaran" }));
    const error = await screen.findByText("bukan nomor ponsel Indonesia");
    const phone = screen.getByLabelText("Nomor WhatsApp") as HTMLInputElement;
    expect(phone.getAttribute("aria-describedby")).toBe(error.id);
    expect(phone.value).toBe("12345");
    const path = "/api/public/tenants/rt-01-sukamaju/applications";
    expect(sentBody(path)).toEqual({
      fullName: "Dewi Pendatang",
      whatsapp: "12345",
      block: "C",
      houseNumber: "12",
    });

    answer = { status: 202, body: { status: "menunggu" } };
    fill("Nomor WhatsApp", "081312345678");
    fireEvent.click(screen.getByRole("button", { name: "Kirim pendaftaran" }));
    expect((await screen.findByRole("status")).textContent).toContain("Pendaftaran Anda sudah kami terima.");
    expect(sentKey(path, 1)).toBe(sentKey(path, 0));
  });
});
