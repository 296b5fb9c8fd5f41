import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The RW summary's figures of one RT, kept in the platform database (ADR 0038) so the summary reads one
 * row per linked RT instead of every RT's database. Counts only, never a row of the RT: the same five
 * figures the summary has always shown. Each figure is stored as computed, whatever the RT's feature
 * flags; the summary applies the flags as they are when it answers, so switching a module off hides its
 * figure at once. A row is trusted only while it is younger than the summary's maximum age and newer
 * than the RT's current link (`computed_at >= tenants.linked_at`): an unlinked RT's row is deleted, and
 * one left by any other way of unlinking (the operator's PATCH) is never read again.
 */
export const rtFigures = sqliteTable("rt_figures", {
  /** The RT tenant (`tenants.id`); one row per RT. */
  tenantId: text("tenant_id").primaryKey(),
  residents: integer("residents").notNull(),
  duesArrearsAmount: integer("dues_arrears_amount").notNull(),
  duesArrearsUnits: integer("dues_arrears_units").notNull(),
  lettersAwaitingProcessing: integer("letters_awaiting_processing").notNull(),
  complaintsOpen: integer("complaints_open").notNull(),
  /** When the figures were read from the RT's database (the clock of the context that read them). */
  computedAt: text("computed_at").notNull(),
});

/**
 * What each RW asked of which RT, and which RT declined it, for the limits on asking (issue 44 P9,
 * links.ts): an RW asks a declined RT again only after a cool-down, the same RT at most once a day, and
 * only so many RTs a day and at once. Rows older than the longest window are pruned by the RW's next
 * request, so the table stays a few rows per RW.
 */
export const rtLinkAsks = sqliteTable(
  "rt_link_asks",
  {
    id: text("id").primaryKey(),
    /** The RW that asked (`tenants.id`). */
    rwId: text("rw_id").notNull(),
    /** The RT asked (`tenants.id`). */
    rtId: text("rt_id").notNull(),
    /** `ask`: the RW asked (and the RT's admins were told); `decline`: the RT's admin declined. */
    kind: text("kind", { enum: ["ask", "decline"] }).notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("rt_link_asks_rw_idx").on(t.rwId, t.at)],
);
