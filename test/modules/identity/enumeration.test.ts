import { describe, expect, it } from "vitest";
import { createTenant } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { postSettled } from "./helpers";

/**
 * Known and unknown emails must be indistinguishable in the answer: same status, same body, same
 * headers. Time is the other channel: the lookup and the send run after the answer for both, and
 * `npm run bench identity` measures it (a test cannot judge latency on a shared machine).
 */
// The address's own remaining count drops by one between the two requests (both come from one address);
// everything else, the account's limit included, must be the same.
const comparable = (headers: Headers) =>
  [...headers.entries()]
    .filter(([name]) => name !== "x-request-id")
    .map(([name, value]) => [name, name === "ratelimit" ? value.replace(/(:ip";r=)\d+/, "$1n") : value])
    .sort(([a], [b]) => (a ?? "").localeCompare(b ?? ""));

describe.each(["/api/auth/magic-link", "/api/auth/forgot-password"])(
  "%s for known and unknown emails",
  (path) => {
    it("answers identically, while only the known account is sent anything", async () => {
      const member = await (await createTenant()).member("warga");
      const unknownEmail = `tidak-terdaftar-${Date.now()}@warga.test`;
      const known = await postSettled(path, { email: member.email });
      const unknown = await postSettled(path, { email: unknownEmail });
      expect(known.status).toBe(202);
      expect(known.body).toEqual({ status: "accepted" });
      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual(known.body);
      expect(comparable(unknown.headers)).toEqual(comparable(known.headers));
      expect(await queuedMessages({ recipient: member.email })).toHaveLength(1);
      expect(await queuedMessages({ recipient: unknownEmail })).toEqual([]);
    });
  },
);
