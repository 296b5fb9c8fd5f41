import { type FactoryTable, made, photoForm, type World } from "../helpers/factories";
import { callJson } from "../helpers/harness";

const storedFile = (w: World) =>
  w.once("stored file", () => {
    return made(
      callJson<{ id: string }>("/api/files", { token: w.a.as.warga.token, body: photoForm("pasar") }),
      "file",
    );
  });

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  // Tenant file store (issue 16).
  "/api/files/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await storedFile(w)).id }, ownerRole: "warga" }),
  },
};
