import { fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { LocationProvider, Route, Router } from "preact-iso";
import { describe, expect, it } from "vitest";
import { Musyawarah } from "../src/screens/musyawarah";
import type { Poll } from "../src/screens/musyawarah/types";
import { fake, problem, resident, signedInAs, useFakeApi } from "./fake-api";

useFakeApi();

const HOUR = 3_600_000;
const poll = (over: Partial<Poll> = {}): Poll => ({
  id: "p1",
  title: "Kenaikan iuran keamanan",
  description: "Satpam malam bertambah satu orang.",
  options: [
    { id: "o1", label: "Setuju" },
    { id: "o2", label: "Tidak setuju" },
    { id: "o3", label: "Abstain" },
  ],
  startsAt: new Date(Date.now() - 24 * HOUR).toISOString(),
  endsAt: new Date(Date.now() + 48 * HOUR).toISOString(),
  status: "aktif",
  quorum: { kind: "percent", value: 50 },
  anonymous: false,
  multipleChoice: false,
  maxChoices: 1,
  voterScope: "warga",
  resultsVisibility: "always",
  results: [
    { optionId: "o1", label: "Setuju", count: 2 },
    { optionId: "o2", label: "Tidak setuju", count: 1 },
    { optionId: "o3", label: "Abstain", count: 1 },
  ],
  turnout: { ballots: 4, eligibleVoters: 10 },
  quorumReached: false,
  hasVoted: false,
  closedAt: null,
  ...over,
});

/** The area as app.tsx mounts it, at `path`. */
function open(path: string) {
  history.replaceState(null, "", path);
  render(
    <LocationProvider>
      <Router>
        <Route path="/musyawarah" component={Musyawarah} />
        <Route path="/musyawarah/*" component={Musyawarah} />
      </Router>
    </LocationProvider>,
  );
}

const ballot = (sent: { body: unknown }) => JSON.parse(String(sent.body)) as { optionIds: string[] };
const votes = () => fake.seen.filter((s) => s.method === "POST" && s.path === "/api/musyawarah/p1/vote");

describe("the open polls", () => {
  it("asks for the open ones and says of each whether the resident has voted", async () => {
    await signedInAs();
    fake.routes["/api/musyawarah"] = {
      status: 200,
      body: {
        items: [poll(), poll({ id: "p2", title: "Jadwal kerja bakti", hasVoted: true })],
        nextCursor: null,
      },
    };
    open("/musyawarah");
    const link = await screen.findByRole("link", { name: "Kenaikan iuran keamanan" });
    expect(link.getAttribute("href")).toBe("/musyawarah/p1");
    expect(screen.getByText("Belum memilih")).toBeTruthy();
    expect(screen.getByText("Sudah memilih")).toBeTruthy();
    const listed = fake.seen.find((s) => s.path === "/api/musyawarah");
    expect(listed?.query.get("status")).toBe("aktif");
  });

  it("says when no poll is open, and offers a retry when the list fails", async () => {
    await signedInAs();
    let answers = 0;
    fake.routes["/api/musyawarah"] = () =>
      answers++ === 0
        ? problem(500, "internal", "Terjadi kesalahan di server.")
        : { status: 200, body: { items: [], nextCursor: null } };
    open("/musyawarah");
    expect((await screen.findByRole("alert")).textContent).toContain("Terjadi kesalahan di server.");
    fireEvent.click(screen.getByRole("button", { name: "Coba lagi" }));
    expect(await screen.findByText("Tidak ada musyawarah yang sedang dibuka.")).toBeTruthy();
  });
});

describe("a poll", () => {
  it("takes one choice, sends it, then says the resident has voted and shows the new count", async () => {
    await signedInAs();
    fake.routes["GET /api/musyawarah/p1"] = { status: 200, body: poll() };
    fake.routes["POST /api/musyawarah/p1/vote"] = {
      status: 200,
      body: poll({
        hasVoted: true,
        results: [
          { optionId: "o1", label: "Setuju", count: 2 },
          { optionId: "o2", label: "Tidak setuju", count: 2 },
          { optionId: "o3", label: "Abstain", count: 1 },
        ],
        turnout: { ballots: 5, eligibleVoters: 10 },
        quorumReached: true,
      }),
    };
    open("/musyawarah/p1");
    expect(await screen.findByRole("heading", { level: 1, name: "Kenaikan iuran keamanan" })).toBeTruthy();
    expect(screen.getByText("4 dari 10 pemilih sudah memilih")).toBeTruthy();
    fireEvent.click(screen.getByRole("radio", { name: "Tidak setuju" }));
    fireEvent.click(screen.getByRole("button", { name: "Kirim suara" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      "Anda sudah memilih. Suara tidak dapat diubah.",
    );
    expect(ballot(votes()[0] ?? { body: "{}" })).toEqual({ optionIds: ["o2"] });
    expect(votes()[0]?.headers.get("Idempotency-Key")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Kirim suara" })).toBeNull();
    expect(screen.getByText("5 dari 10 pemilih sudah memilih")).toBeTruthy();
    expect(screen.getByText("kuorum tercapai")).toBeTruthy();
    expect(screen.getAllByText("2 suara (40%)")).toHaveLength(2);
  });

  it("asks for a choice before sending anything", async () => {
    await signedInAs();
    fake.routes["GET /api/musyawarah/p1"] = { status: 200, body: poll() };
    open("/musyawarah/p1");
    fireEvent.click(await screen.findByRole("button", { name: "Kirim suara" }));
    expect(await screen.findByText("Pilih dulu salah satu pilihan.")).toBeTruthy();
    expect(votes()).toHaveLength(0);
  });

  it("keeps the choice after a failed vote, shows the problem, and sends the same Idempotency-Key again", async () => {
    await signedInAs();
    fake.routes["GET /api/musyawarah/p1"] = { status: 200, body: poll() };
    let tries = 0;
    fake.routes["POST /api/musyawarah/p1/vote"] = () =>
      tries++ === 0
        ? problem(500, "internal", "Terjadi kesalahan di server.")
        : { status: 200, body: poll({ hasVoted: true }) };
    open("/musyawarah/p1");
    fireEvent.click(await screen.findByRole("radio", { name: "Setuju" }));
    fireEvent.click(screen.getByRole("button", { name: "Kirim suara" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Terjadi kesalahan di server.");
    expect((screen.getByRole("radio", { name: "Setuju" }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Kirim suara" }));
    await screen.findByText("Anda sudah memilih. Suara tidak dapat diubah.");
    const [first, second] = votes();
    expect(second?.headers.get("Idempotency-Key")).toBe(first?.headers.get("Idempotency-Key"));
    expect(ballot(second ?? { body: "{}" })).toEqual({ optionIds: ["o1"] });
  });

  it("shows the API's refusal of the choice beside the options", async () => {
    await signedInAs();
    fake.routes["GET /api/musyawarah/p1"] = { status: 200, body: poll() };
    fake.routes["POST /api/musyawarah/p1/vote"] = {
      status: 400,
      body: {
        ...(problem(400, "invalid_choice", "Pilihan tidak sah.").body as object),
        errors: [{ field: "optionIds", message: "bukan pilihan musyawarah ini" }],
      },
    };
    open("/musyawarah/p1");
    fireEvent.click(await screen.findByRole("radio", { name: "Abstain" }));
    fireEvent.click(screen.getByRole("button", { name: "Kirim suara" }));
    const error = await screen.findByText("bukan pilihan musyawarah ini");
    const group = screen.getByRole("group");
    expect(group.getAttribute("aria-describedby")).toBe(error.id);
  });

  it("lets a multiple-choice ballot take up to maxChoices and no more", async () => {
    await signedInAs();
    fake.routes["GET /api/musyawarah/p1"] = {
      status: 200,
      body: poll({ multipleChoice: true, maxChoices: 2, resultsVisibility: "after_close", results: null }),
    };
    fake.routes["POST /api/musyawarah/p1/vote"] = {
      status: 200,
      body: poll({ multipleChoice: true, maxChoices: 2, results: null, hasVoted: true }),
    };
    open("/musyawarah/p1");
    expect(await screen.findByText("Pilihan Anda (paling banyak 2)")).toBeTruthy();
    expect(screen.getByText("Hasil ditampilkan setelah musyawarah ditutup.")).toBeTruthy();
    fireEvent.click(screen.getByRole("checkbox", { name: "Setuju" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Abstain" }));
    expect((screen.getByRole("checkbox", { name: "Tidak setuju" }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Kirim suara" }));
    await screen.findByText("Anda sudah memilih. Suara tidak dapat diubah.");
    expect(ballot(votes()[0] ?? { body: "{}" })).toEqual({ optionIds: ["o1", "o3"] });
  });

  it("shows a closed poll's results and quorum without a ballot", async () => {
    await signedInAs();
    fake.routes["GET /api/musyawarah/p1"] = {
      status: 200,
      body: poll({ status: "ditutup", closedAt: "2026-11-20T12:00:00Z", quorumReached: true }),
    };
    open("/musyawarah/p1");
    expect(await screen.findByText("Musyawarah ini ditutup 20 November 2026, 19.00 WIB.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Kirim suara" })).toBeNull();
    expect(screen.getByText(/^Kuorum: 50% pemilih/)).toBeTruthy();
    expect(screen.getByText("kuorum tercapai")).toBeTruthy();
  });

  it("says of a household poll that the household has voted", async () => {
    await signedInAs();
    fake.routes["GET /api/musyawarah/p1"] = { status: 200, body: poll({ voterScope: "kk", hasVoted: true }) };
    open("/musyawarah/p1");
    expect(
      await screen.findByText("Keluarga Anda (satu KK) sudah memilih. Suara tidak dapat diubah."),
    ).toBeTruthy();
    expect(screen.getByText(/satu suara per KK/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Kirim suara" })).toBeNull();
  });

  it("gives no ballot to a member who is not a resident", async () => {
    await signedInAs({ ...resident, resident: false, roles: ["bendahara"] });
    fake.routes["GET /api/musyawarah/p1"] = { status: 200, body: { ...poll(), hasVoted: undefined } };
    open("/musyawarah/p1");
    await screen.findByRole("heading", { level: 1, name: "Kenaikan iuran keamanan" });
    expect(screen.queryByRole("radio")).toBeNull();
    await waitFor(() => expect(screen.getByText("Hasil")).toBeTruthy());
  });
});
