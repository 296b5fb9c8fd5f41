import { cleanup, fireEvent, render, screen } from "@testing-library/preact";
import { useState } from "preact/hooks";
import { afterEach, describe, expect, it } from "vitest";
import { type Page, ShowPaged, usePaged } from "../src/ui/states";

afterEach(cleanup);

describe("a list that reloads after an action", () => {
  it("never renders the action's notice beside the rows the reload replaces", async () => {
    // Every render the component makes, as (what the notice said, what the list was showing): a stale
    // row next to "answered" is what a person could act on twice, and what a test reading the screen at
    // the notice's moment would find.
    const renders: [string | null, string][] = [];
    let served = ["Surat 001", "Surat 002"];
    function Queue() {
      const letters = usePaged<string>(async () => ({ items: served }) as Page<string>);
      const [notice, setNotice] = useState<string | null>(null);
      renders.push([notice, letters.state === "ready" ? letters.items.join(",") : letters.state]);
      return (
        <section>
          {notice && <p role="status">{notice}</p>}
          <ShowPaged paged={letters} empty="Tidak ada surat">
            {(items) => (
              <ul>
                {items.map((item) => (
                  <li key={item}>
                    {item}
                    <button
                      type="button"
                      onClick={() => {
                        served = served.filter((s) => s !== item);
                        setNotice(`${item} diketahui.`);
                        if (letters.state === "ready") {
                          letters.reload();
                        }
                      }}
                    >
                      Mengetahui {item}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </ShowPaged>
        </section>
      );
    }
    render(<Queue />);
    fireEvent.click(await screen.findByRole("button", { name: "Mengetahui Surat 001" }));
    await screen.findByText("Surat 002");
    expect(screen.queryByRole("button", { name: "Mengetahui Surat 001" })).toBeNull();
    const withNotice = renders.filter(([notice]) => notice !== null).map(([, list]) => list);
    // The notice's first render already shows the placeholder; then the reloaded rows.
    expect(withNotice[0]).toBe("loading");
    expect(withNotice).not.toContain("Surat 001,Surat 002");
    expect(withNotice.at(-1)).toBe("Surat 002");
  });
});
