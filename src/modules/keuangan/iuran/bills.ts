import { and, asc, eq, getTableColumns, isNull, type SQL, sql } from "drizzle-orm";
import type { TenantCtx } from "../../../core/context";
import { afterCursor, keysetPage } from "../../../core/db/paging";
import { rowByIdOrNotFound } from "../../../core/db/rows";
import { tenantFileUrl } from "../../../platform/uploads";
import { duesBills, type duesPayments } from "../tables";
import type { BillListQuery } from "./schemas";

// Dues bills and their payments as staff read them: the rows' shapes and the staff list.

export type BillRow = typeof duesBills.$inferSelect;

export function presentBill(row: BillRow) {
  return {
    id: row.id,
    typeId: row.typeId,
    typeName: row.typeName,
    period: row.period,
    basis: row.basis,
    unitId: row.unitId,
    familyId: row.familyId,
    movedOutFamilyId: row.movedOutFamilyId,
    amount: row.amount,
    paidAmount: row.paidAmount,
    outstanding: row.amount - row.paidAmount,
    status: row.status,
    createdAt: row.createdAt,
  };
}

export type PaymentRow = typeof duesPayments.$inferSelect;

/** A payment as finance sees it, with its reversal once there is one. */
export function presentPayment(ctx: TenantCtx, row: PaymentRow) {
  return {
    id: row.id,
    amount: row.amount,
    method: row.method,
    paidAt: row.paidAt,
    proofUrl: row.proofFileId ? tenantFileUrl(ctx, row.proofFileId) : null,
    cashEntryId: row.cashEntryId,
    reversal:
      row.reversedAt && row.reversalEntryId
        ? {
            at: row.reversedAt,
            by: row.reversedBy,
            reason: row.reversalReason ?? "",
            cashEntryId: row.reversalEntryId,
          }
        : null,
  };
}

/** The staff list: bills with their payments (reversed ones included and marked), oldest payment first. */
export async function listBills({ ctx, input }: { ctx: TenantCtx; input: BillListQuery }) {
  const filters: SQL[] = [
    ...afterCursor(duesBills.id, input.cursor, "asc"),
    ...(input.period ? [eq(duesBills.period, input.period)] : []),
    ...(input.status ? [eq(duesBills.status, input.status)] : []),
    // A unit's bills are its current household's: those settled to a family that moved out are not.
    ...(input.unitId ? [eq(duesBills.unitId, input.unitId), isNull(duesBills.movedOutFamilyId)] : []),
  ];
  // One round trip per page (issue 18): each bill's payments ride along as a JSON array of rows, in id
  // order, built by a correlated subquery over the bill index. Table names are spelled out: inside a
  // select's fields drizzle writes a column as its bare name, which the subquery would take as its own.
  const rows = await ctx.db
    .select({
      ...getTableColumns(duesBills),
      payments: sql<string>`(SELECT json_group_array(json(p.row)) FROM (
        SELECT json_object('id', id, 'billId', bill_id, 'amount', amount, 'method', method,
          'paidAt', paid_at, 'gatewayOrderId', gateway_order_id, 'proofFileId', proof_file_id,
          'cashEntryId', cash_entry_id, 'recordedBy', recorded_by, 'reversedAt', reversed_at,
          'reversedBy', reversed_by, 'reversalReason', reversal_reason,
          'reversalEntryId', reversal_entry_id, 'createdAt', created_at) AS row
        FROM dues_payments WHERE bill_id = dues_bills.id ORDER BY id) AS p)`,
    })
    .from(duesBills)
    .where(and(...filters))
    .orderBy(asc(duesBills.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return {
    items: page.items.map(({ payments, ...bill }) => ({
      ...presentBill(bill),
      payments: (JSON.parse(payments) as PaymentRow[]).map((payment) => presentPayment(ctx, payment)),
    })),
    nextCursor: page.nextCursor,
  };
}

export async function loadBill(ctx: Pick<TenantCtx, "db">, id: string): Promise<BillRow> {
  return rowByIdOrNotFound(ctx.db, duesBills, id, "Bill");
}
