import { type FactoryTable, made, type World } from "../../helpers/factories";
import { callJson, unique } from "../../helpers/harness";

// A registered push token (issue 16).
const pushToken = (w: World) =>
  w.once("push token", async () => {
    const token = `fcm-walk-${unique("t")}`;
    await made(
      callJson("/api/user/push-tokens", { token: w.a.as.warga.token, body: { token, platform: "android" } }),
      "push token",
      200,
    );
    return token;
  });

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/user/push-tokens/:token": {
    kind: "tenant",
    make: async (w) => ({ params: { token: await pushToken(w) }, ownerRole: "warga", residentOwned: true }),
  },
  "/api/auth/oauth/:provider": {
    kind: "exempt",
    why: "names a configured identity provider, not an object (test/modules/identity/oauth.test.ts)",
  },
  "/api/auth/oauth/:provider/callback": {
    kind: "exempt",
    why: "its object is the signed state, checked in test/modules/identity/oauth.test.ts",
  },
};
