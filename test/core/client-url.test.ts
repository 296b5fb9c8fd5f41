import { describe, expect, it } from "vitest";
import { clientUrl } from "../../src/core/env";
import { joinUrl } from "../../src/modules/identity/invitations";
import { magicLinkUrl } from "../../src/modules/identity/oneTimeTokens";

describe("links into the client (CLIENT_URL defaults to APP_URL, ADR 0041)", () => {
  it("opens the web app this Worker serves when no separate client is configured", () => {
    const env = { APP_URL: "https://rt.example.id/" };
    expect(clientUrl(env)).toBe("https://rt.example.id");
    expect(clientUrl({ ...env, CLIENT_URL: "" })).toBe("https://rt.example.id");
    expect(magicLinkUrl(env, "tok")).toBe("https://rt.example.id/auth/magic-link?token=tok");
    expect(joinUrl(env, "a b")).toBe("https://rt.example.id/join?token=a%20b");
  });

  it("keeps CLIENT_URL for a client hosted elsewhere", () => {
    const env = { APP_URL: "https://api.example.id", CLIENT_URL: "https://app.example.id/" };
    expect(clientUrl(env)).toBe("https://app.example.id");
    expect(joinUrl(env, "t")).toBe("https://app.example.id/join?token=t");
  });
});
