import { describe, expect, it } from "vitest";
import { systemPlatformCtx } from "../../src/core/tenancy/system";
import { jakartaDay, nowIso, platformClock, systemNow } from "../../src/core/time";
import { ctxAt, jakartaTime, resetClock, setNow } from "../helpers/clock";
import { bindings } from "../helpers/harness";

describe("the clock in the context", () => {
  it("reads the platform's clock in every context core builds, which a test sets and puts back", () => {
    const ctx = systemPlatformCtx(bindings, "test");
    setNow(jakartaTime("2026-04-10", 6));
    expect(jakartaDay(ctx.now())).toBe("2026-04-10");
    expect(ctx.now().toISOString().slice(0, 10)).toBe("2026-04-09"); // 06:00 WIB is still the 9th in UTC
    expect(nowIso(ctx).slice(0, 13)).toBe("2026-04-09T23");
    expect(nowIso(platformClock).slice(0, 13)).toBe("2026-04-09T23");
    resetClock();
    expect(Math.abs(systemNow().getTime() - Date.now())).toBeLessThan(1000);
  });

  it("runs on from the time set, so rows made one after another keep their order", async () => {
    setNow("2026-04-10T00:00:00.000Z");
    const first = systemNow().getTime();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(systemNow().getTime()).toBeGreaterThan(first);
    expect(first - Date.parse("2026-04-10T00:00:00.000Z")).toBeLessThan(1000);
  });

  it("gives one directly called verb its own time with ctxAt, leaving the platform's clock alone", () => {
    const ctx = ctxAt(systemPlatformCtx(bindings, "test"), "2026-01-01T00:00:00.000Z");
    expect(ctx.now().toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(jakartaDay(ctx.now())).toBe("2026-01-01");
    expect(Math.abs(systemNow().getTime() - Date.now())).toBeLessThan(1000);
  });
});
