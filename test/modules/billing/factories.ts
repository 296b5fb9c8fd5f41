import { type FactoryTable, made } from "../../helpers/factories";
import { callJson } from "../../helpers/harness";
import { fakeGateways } from "./gateway";

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/platform/tenants/:id/invoices": {
    kind: "platform",
    make: async (w) => {
      // Issuing makes a real checkout: answer Midtrans at the fetch boundary (other hosts pass through).
      fakeGateways({ passThrough: true });
      return { params: { id: w.a.tenant.id }, body: { post: { plan: "dasar", months: 1 } } };
    },
  },
  "/api/platform/tenants/:id/invoices/:invoiceId/void": {
    kind: "platform",
    make: async (w) => {
      fakeGateways({ passThrough: true });
      const invoice = await made(
        callJson<{ id: string }>(`/api/platform/tenants/${w.a.tenant.id}/invoices`, {
          token: w.operator,
          body: { plan: "dasar", months: 1 },
        }),
        "operator invoice",
      );
      return {
        params: { id: w.a.tenant.id, invoiceId: invoice.id },
        body: { post: { reason: "Salah paket, diganti tagihan baru" } },
      };
    },
  },
};
