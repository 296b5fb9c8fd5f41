import { pbkdf2Sync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from "../../src/core/auth/password";

const PEPPER = "pepper-for-this-test-only-0123456789abcdef";

describe("password hashes (ADR 0012)", () => {
  it("stores PBKDF2-SHA512 at workerd's cap over a peppered password", async () => {
    const stored = await hashPassword("kata-sandi-rahasia", PEPPER);
    expect(stored).toMatch(
      new RegExp(`^pbkdf2-sha512-peppered\\$${PBKDF2_ITERATIONS}\\$[\\w-]{22}\\$[\\w-]{43}$`),
    );
    expect(await verifyPassword("kata-sandi-rahasia", stored, PEPPER)).toEqual({
      valid: true,
      needsRehash: false,
    });
    expect((await verifyPassword("kata-sandi-salah", stored, PEPPER)).valid).toBe(false);
  });

  it("cannot be checked without the pepper: the database alone does not verify a guess", async () => {
    const stored = await hashPassword("kata-sandi-rahasia", PEPPER);
    expect(
      (await verifyPassword("kata-sandi-rahasia", stored, "another-pepper-0123456789abcdef01")).valid,
    ).toBe(false);
  });

  it("still verifies a first-scheme hash (PBKDF2-SHA256, no pepper) and asks for a rehash", async () => {
    const salt = Buffer.from("0123456789abcdef");
    const hash = pbkdf2Sync("warga-demo-2026", salt, 100_000, 32, "sha256");
    const legacy = `pbkdf2-sha256$100000$${salt.toString("base64url")}$${hash.toString("base64url")}`;
    expect(await verifyPassword("warga-demo-2026", legacy, PEPPER)).toEqual({
      valid: true,
      needsRehash: true,
    });
    expect(await verifyPassword("wrong", legacy, PEPPER)).toEqual({ valid: false, needsRehash: false });
  });

  it("spends the same work on an unknown account and refuses it", async () => {
    expect(await verifyPassword("anything", null, PEPPER)).toEqual({ valid: false, needsRehash: false });
    expect(await verifyPassword("anything", "md5$1$x$y", PEPPER)).toEqual({
      valid: false,
      needsRehash: false,
    });
  });
});
