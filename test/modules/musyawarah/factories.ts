import { type FactoryTable, made, type World } from "../../helpers/factories";
import { callJson } from "../../helpers/harness";

const poll = (w: World) =>
  w.once("poll", () =>
    made(
      callJson<{ id: string; options: { id: string }[] }>("/api/musyawarah", {
        token: w.a.as.sekretaris.token,
        body: {
          title: "Jadwal kerja bakti",
          options: ["Sabtu", "Minggu"],
          status: "aktif",
          startsAt: new Date(Date.now() - 60_000).toISOString(),
          endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        },
      }),
      "poll",
    ),
  );

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/musyawarah/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await poll(w)).id }, body: { put: { status: "ditutup" } } }),
  },
  "/api/musyawarah/:id/vote": {
    kind: "tenant",
    make: async (w) => {
      const p = await poll(w);
      return { params: { id: p.id }, body: { post: { optionIds: [p.options[0]?.id] } } };
    },
  },
  "/api/musyawarah/:id/votes": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await poll(w)).id } }),
  },
};
