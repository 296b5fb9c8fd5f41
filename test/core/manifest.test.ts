import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { tenantFiles } from "../../src/core/db/tenant-schema";
import { fileReference, personalColumns, personalData } from "../../src/core/module";
import { kependudukanPersonalData } from "../../src/modules/kependudukan/manifest";
import { familyMembers } from "../../src/modules/kependudukan/tables";

function sqlNever(): never {
  throw new Error("family_members declares no ownRows");
}

describe("typed manifests (issue 48 item 3, ADR 0050)", () => {
  it("derive the SQL names the readers use from the column objects", () => {
    const [table, columns] = personalColumns(tenantFiles, {
      subjects: [tenantFiles.uploadedBy],
      owner: null,
      other: [tenantFiles.id, tenantFiles.r2Key],
    });
    expect(table).toBe("files");
    expect(columns).toEqual({ subjects: ["uploaded_by"], owner: null, other: ["id", "r2_key"] });
    expect(fileReference(familyMembers.familyCardId, "text")).toEqual({
      table: "family_members",
      column: "family_card_id",
      holds: "text",
    });
  });

  it("refuse a table declared twice in one manifest", () => {
    const once = personalColumns(tenantFiles, { other: [tenantFiles.id] });
    expect(() => personalData(once, once)).toThrow("personalData declares files twice");
  });

  it("hand identity's export the registry's own condition as a drizzle query, not SQL text", () => {
    const ownRows = kependudukanPersonalData.family_members?.ownRows;
    const condition = ownRows?.({ userId: "u1", unitId: null, personId: "p1" });
    expect(condition).toBeDefined();
    // Names from the column objects, the person as a parameter, never spliced into the text.
    expect(new SQLiteSyncDialect().sqlToQuery(condition ?? sqlNever())).toMatchObject({
      sql: '"family_members"."id" = ?',
      params: ["p1"],
    });
  });
});
