import { fireEvent, render, screen, waitFor, within } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { Asisten } from "../src/screens/asisten";
import { fake, problem, signedInAs, useFakeApi } from "./fake-api";

useFakeApi();

describe("the asisten screen", () => {
  it("holds a multi-turn conversation, sending the turns so far with each question", async () => {
    await signedInAs();
    fake.routes["/api/ai/status"] = { status: 200, body: { available: true, mode: "builtin" } };
    let n = 0;
    fake.routes["POST /api/ai/chat"] = () => ({
      status: 200,
      body: { reply: `Jawaban ${++n}`, sources: n === 1 ? [{ kind: "tagihan", id: "b1" }] : [] },
    });
    render(<Asisten />);
    const input = screen.getByLabelText("Pesan Anda") as HTMLTextAreaElement;
    fireEvent.input(input, { target: { value: "Berapa iuran saya?" } });
    fireEvent.click(screen.getByRole("button", { name: "Kirim" }));
    const log = screen.getByRole("list", { name: "Percakapan" });
    expect(await within(log).findByText("Jawaban 1")).toBeTruthy();
    expect(within(log).getByRole("link", { name: "Iuran" }).getAttribute("href")).toBe("/iuran");
    expect(input.value).toBe("");
    fireEvent.input(input, { target: { value: "Dan surat saya?" } });
    fireEvent.click(screen.getByRole("button", { name: "Kirim" }));
    expect(await within(log).findByText("Jawaban 2")).toBeTruthy();
    const sent = fake.seen.filter((s) => s.path === "/api/ai/chat").map((s) => JSON.parse(s.body as string));
    expect(sent[1]).toEqual({
      messages: [
        { role: "user", content: "Berapa iuran saya?" },
        { role: "assistant", content: "Jawaban 1" },
        { role: "user", content: "Dan surat saya?" },
      ],
    });
  });

  it("sends the newest turns that fit the API's 8,000 characters, and links the app's paths in a reply", async () => {
    await signedInAs();
    fake.routes["/api/ai/status"] = { status: 200, body: { available: true, mode: "builtin" } };
    let n = 0;
    fake.routes["POST /api/ai/chat"] = () => ({
      status: 200,
      body: { reply: `Jawaban ${++n}: ${"x".repeat(3_000)}\nBayar lewat menu Iuran: /iuran`, sources: [] },
    });
    render(<Asisten />);
    const input = screen.getByLabelText("Pesan Anda") as HTMLTextAreaElement;
    const log = screen.getByRole("list", { name: "Percakapan" });
    for (const question of ["T1", "T2", "T3", "T4"]) {
      fireEvent.input(input, { target: { value: question } });
      fireEvent.click(screen.getByRole("button", { name: "Kirim" }));
      await waitFor(() => expect(input.value).toBe(""));
    }
    const sent = fake.seen
      .filter((s) => s.path === "/api/ai/chat")
      .map((s) => JSON.parse(s.body as string) as { messages: { role: string; content: string }[] });
    const last = sent.at(-1)?.messages ?? [];
    expect(last.reduce((total, m) => total + m.content.length, 0)).toBeLessThanOrEqual(8_000);
    expect(last.map((m) => m.content.slice(0, 9))).toEqual(["T2", "Jawaban 2", "T3", "Jawaban 3", "T4"]);
    const links = within(log).getAllByRole("link", { name: "/iuran" });
    expect(links).toHaveLength(4);
    expect(links[0]?.getAttribute("href")).toBe("/iuran");
  });

  it("keeps the typed message when a send fails, and the retry sends the same key", async () => {
    await signedInAs();
    fake.routes["/api/ai/status"] = { status: 200, body: { available: true, mode: "builtin" } };
    let fail = true;
    fake.routes["POST /api/ai/chat"] = () =>
      fail
        ? problem(429, "rate_limited", "Batas harian tercapai")
        : { status: 200, body: { reply: "Oke", sources: [] } };
    render(<Asisten />);
    const input = screen.getByLabelText("Pesan Anda") as HTMLTextAreaElement;
    fireEvent.input(input, { target: { value: "Halo" } });
    fireEvent.click(screen.getByRole("button", { name: "Kirim" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Batas harian tercapai");
    expect(input.value).toBe("Halo");
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Kirim" }));
    expect(await screen.findByText("Oke")).toBeTruthy();
    const keys = fake.seen
      .filter((s) => s.path === "/api/ai/chat")
      .map((s) => s.headers.get("Idempotency-Key"));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it("says when the assistant is not available and does not send", async () => {
    await signedInAs();
    fake.routes["/api/ai/status"] = { status: 200, body: { available: false, mode: "llm" } };
    render(<Asisten />);
    expect(await screen.findByText(/Asisten sedang tidak tersedia/)).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByRole("button", { name: "Kirim" }) as HTMLButtonElement).disabled).toBe(true),
    );
    vi.restoreAllMocks();
  });
});
