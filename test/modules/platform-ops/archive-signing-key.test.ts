import { describe, expect, it } from "vitest";
import { type Bindings, loadConfig } from "../../../src/core/env";
import { signManifest, verifyManifest } from "../../../src/modules/platform-ops/signature";
import { bindings } from "../../helpers/harness";

const manifest = new TextEncoder().encode('{"format":"warga-tenant-archive","entries":[]}');

/** HMAC-SHA256 under HKDF(secret, label), the derivation the first signed archives used with the pepper. */
async function pepperSignature(pepper: string): Promise<string> {
  const secret = await crypto.subtle.importKey("raw", new TextEncoder().encode(pepper), "HKDF", false, [
    "deriveKey",
  ]);
  const key = await crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new Uint8Array(32),
      info: new TextEncoder().encode("warga/tenant-archive-signature/v1"),
    },
    secret,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, manifest);
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Issue 31 N7 follow-up: archives are signed with their own secret, not with the password pepper. */
describe("the archive signing key", () => {
  it("is its own required secret of at least 32 characters", () => {
    const { ARCHIVE_SIGNING_KEY: _, ...without } = bindings;
    expect(() => loadConfig(without as Bindings)).toThrow(/ARCHIVE_SIGNING_KEY/);
    expect(() => loadConfig({ ...bindings, ARCHIVE_SIGNING_KEY: "short" })).toThrow(/ARCHIVE_SIGNING_KEY/);
    expect(loadConfig(bindings).ARCHIVE_SIGNING_KEY).toBe(bindings.ARCHIVE_SIGNING_KEY);
  });

  it("alone decides the signature: the pepper does not, and a signature made from the pepper is refused", async () => {
    const config = loadConfig(bindings);
    const signature = await signManifest(config, manifest);
    expect(
      await verifyManifest({ ARCHIVE_SIGNING_KEY: config.ARCHIVE_SIGNING_KEY }, manifest, signature),
    ).toBe(true);
    const otherKey = { ARCHIVE_SIGNING_KEY: "another-archive-signing-key-long-enough-0123" };
    expect(await verifyManifest(otherKey, manifest, signature)).toBe(false);
    // What an archive signed by the earlier build (key derived from PASSWORD_PEPPER) carries.
    const old = await pepperSignature(config.PASSWORD_PEPPER);
    expect(old).not.toBe(signature);
    expect(await verifyManifest(config, manifest, old)).toBe(false);
  });
});
