import { describe, expect, it } from "vitest";
import { sharedCalls } from "../../src/core/sharedCalls";

/** A send whose calls stay open until the test releases them, recording what each carried. */
function heldSend() {
  const calls: { items: number[]; release: () => void; fail: (e: unknown) => void }[] = [];
  const send = (items: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      calls.push({ items, release: () => resolve(items.map((n) => n * 10)), fail: reject });
    });
  return { calls, send };
}

/** Lets every promise continuation that can run, run. */
const settle = async () => {
  for (let i = 0; i < 20; i++) {
    await Promise.resolve();
  }
};

describe("sharedCalls", () => {
  it("makes one call for the items given while another is in flight, each caller getting its own result", async () => {
    const call = sharedCalls<number, number>(10);
    const { calls, send } = heldSend();
    const first = call("t1:a", 1, send);
    await settle();
    const rest = [2, 3, 4].map((n) => call("t1:a", n, send));
    await settle();
    expect(calls.map((c) => c.items)).toEqual([[1]]);
    calls[0]?.release();
    expect(await first).toBe(10);
    await settle();
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3, 4]]);
    calls[1]?.release();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  it("carries at most max items in one call, and keeps keys apart", async () => {
    const call = sharedCalls<number, number>(2);
    const { calls, send } = heldSend();
    const all = [call("t1:a", 1, send), call("t1:a", 2, send), call("t1:a", 3, send), call("t2:a", 9, send)];
    await settle();
    // The first item went alone (nothing was in flight); t2 has its own lane.
    expect(calls.map((c) => c.items)).toEqual([[1], [9]]);
    calls[0]?.release();
    calls[1]?.release();
    await settle();
    expect(calls.map((c) => c.items)).toEqual([[1], [9], [2, 3]]);
    calls[2]?.release();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 90]);
  });

  it("gives a failed call's error to every caller it carried, and the next call goes on", async () => {
    const call = sharedCalls<number, number>(10);
    const { calls, send } = heldSend();
    const first = call("k", 1, send);
    await settle();
    const carried = [call("k", 2, send), call("k", 3, send)];
    await settle();
    calls[0]?.release();
    await first;
    await settle();
    const later = call("k", 4, send);
    calls[1]?.fail(new Error("tally down"));
    for (const p of carried) {
      await expect(p).rejects.toThrow("tally down");
    }
    await settle();
    calls[2]?.release();
    expect(await later).toBe(40);
  });

  it("refuses an answer that does not have one result per item", async () => {
    const call = sharedCalls<number, number>(10);
    await expect(call("k", 1, async () => [])).rejects.toThrow(/0 results for 1 items/);
  });

  it("hands each call it makes to keep (the caller's waitUntil)", async () => {
    const call = sharedCalls<number, number>(10);
    const kept: Promise<unknown>[] = [];
    expect(
      await call(
        "k",
        5,
        async (items) => items,
        (p) => kept.push(p),
      ),
    ).toBe(5);
    expect(kept).toHaveLength(1);
  });
});
