import { getTableName, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { ErrorCode } from "./errors";
import type { RouteDef } from "./http/access";
import type { Indicator } from "./indicators";
import type { Job } from "./jobs";

/** Who a resident's own data export is for, in one tenant: what an `ownRows` condition may compare with. */
export interface OwnRowsPerson {
  userId: string;
  /** Their unit in this tenant (null when they have none). */
  unitId: string | null;
  /**
   * The registry person their membership is linked to (`family_members.id`); null when unlinked, which
   * matches nothing (`= NULL` is never true).
   */
  personId: string | null;
}

/**
 * How each text column of a module's tenant tables relates to a person (UU 27/2022 on personal data),
 * as its readers see it: SQL names, derived by `personalColumns` from the drizzle column objects a module
 * declares (never written as strings: a renamed column is a `tsc` error). Tenant export, a resident's own
 * data export and erasure read these, so a table added later is covered once its module declares it (a
 * test fails on any tenant text column nobody classified).
 */
export interface PersonalColumns {
  /** Columns holding a user's id (who wrote, asked, decided): erasure rewrites them to an anonymous reference. */
  subjects?: readonly string[];
  /**
   * The subject column whose person owns the row's personal fields (erasure blanks them on that
   * person's rows). Defaults to the first subject; null for rows no erasable person owns, such as the
   * registry's log of life events (its `recorded_by` is the clerk, not the person it describes).
   */
  owner?: string | null;
  /** Columns holding personal data (names, NIK, phone numbers, free text a person wrote): erasure blanks them. */
  personal?: readonly string[];
  /** Text columns holding no personal data (ids, statuses, times, the community's own text). */
  other?: readonly string[];
  /**
   * For rows that are a person's own without naming their account (the registry's person records): a
   * drizzle condition on the table selecting the account's own rows, built by the owning module from its
   * own column objects (so no module splices another's SQL text). Never a name: a namesake is not the
   * person. A resident's own data export reads the matching rows as theirs; erasure leaves them to the
   * module.
   */
  ownRows?: (person: OwnRowsPerson) => SQL;
  /**
   * Personal columns that can hold other people's data even on the owner's rows (an audit entry's
   * detail, about what its actor acted on; a guest's identity number): a resident's own data export
   * leaves them out. Erasure still blanks them.
   */
  aboutOthers?: readonly string[];
}

/** A column of the drizzle table `T`, as its column object (`table.someColumn`). */
export type ColumnOf<T extends SQLiteTable> = T["_"]["columns"][keyof T["_"]["columns"]];

/**
 * What a module declares for one of its tenant tables: `PersonalColumns` written with the table's own
 * column objects, so a column of another table, a renamed or a removed one does not compile.
 */
export interface PersonalColumnsOf<T extends SQLiteTable> {
  subjects?: readonly ColumnOf<T>[];
  owner?: ColumnOf<T> | null;
  personal?: readonly ColumnOf<T>[];
  other?: readonly ColumnOf<T>[];
  ownRows?: (person: OwnRowsPerson) => SQL;
  aboutOthers?: readonly ColumnOf<T>[];
}

/** One table's declaration, by SQL table name, as `AppModule.personalData` holds it. */
export type PersonalDeclaration = readonly [table: string, columns: PersonalColumns];

const namesOf = (columns: readonly SQLiteColumn[] | undefined) => columns?.map((c) => c.name);

/** Declares how one tenant table holds personal data, with its column objects (see PersonalColumnsOf). */
export function personalColumns<T extends SQLiteTable>(
  table: T,
  declared: NoInfer<PersonalColumnsOf<T>>,
): PersonalDeclaration {
  const columns: PersonalColumns = {
    subjects: namesOf(declared.subjects as readonly SQLiteColumn[] | undefined),
    personal: namesOf(declared.personal as readonly SQLiteColumn[] | undefined),
    other: namesOf(declared.other as readonly SQLiteColumn[] | undefined),
    aboutOthers: namesOf(declared.aboutOthers as readonly SQLiteColumn[] | undefined),
    ...(declared.owner === undefined ? {} : { owner: (declared.owner as SQLiteColumn | null)?.name ?? null }),
    ...(declared.ownRows ? { ownRows: declared.ownRows } : {}),
  };
  for (const key of ["subjects", "personal", "other", "aboutOthers"] as const) {
    if (columns[key] === undefined) {
      delete columns[key];
    }
  }
  return [getTableName(table), columns];
}

declare const manifestBrand: unique symbol;
/**
 * A module's personal-data manifest as only `personalData(...)` builds it: a hand-written object of
 * string column names does not type-check as one (issue 48 item 3), so every name comes from a drizzle
 * column and a renamed column is a `tsc` error.
 */
export type PersonalDataManifest = Readonly<Record<string, PersonalColumns>> & {
  readonly [manifestBrand]: true;
};

/** A module's `personalData`: its tables' declarations (`personalColumns`), by SQL table name. */
export function personalData(...declarations: readonly PersonalDeclaration[]): PersonalDataManifest {
  const byTable: Record<string, PersonalColumns> = {};
  for (const [table, columns] of declarations) {
    // A second declaration would silently replace the first: one table, one classification.
    if (table in byTable) {
      throw new Error(`personalData declares ${table} twice`);
    }
    byTable[table] = columns;
  }
  return byTable as PersonalDataManifest;
}

/**
 * A column of a module's tenant table that points at files of the tenant's file store (platform/uploads),
 * as the sweep reads it: SQL names, derived by `fileReference` from the column object.
 * The daily sweep of unattached uploads (platform/uploads/sweep.ts) deletes an old file only when no
 * declared column points at it, so a module that keeps file ids must declare every column holding
 * them; a test checks each declaration against the tenant schema.
 */
export interface FileReference {
  /** SQL table name. */
  table: string;
  /** SQL column name. */
  column: string;
  /**
   * `id` (the default): the column holds one file id. `text`: free text in which a file may be named
   * (a URL ending in `/api/files/<id>`, a storage key, a JSON array of ids); a file counts as referenced
   * when its id appears anywhere in it.
   */
  holds?: "id" | "text";
}

/** Declares a column holding file references by its column object (see FileReference). */
export function fileReference(column: SQLiteColumn, holds?: FileReference["holds"]): FileReference {
  return { table: getTableName(column.table), column: column.name, ...(holds ? { holds } : {}) };
}

/**
 * What a module declares to a platform feature (src/platform/*, docs/adr/0051-a-small-kernel.md). The
 * kernel names no feature: each adds its own field here by declaration merging, next to its public face
 * (`declare module "../../core/module"`): `payments` (src/platform/payments/index.ts) and `versioned`
 * (src/platform/conditional/index.ts). src/app.ts, which assembles the app, reads them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the platform features extend it by declaration merging.
export interface ModuleDeclarations {}

/** What a module hands the composition root: its routes (with their access rules) and indicators. */
export interface AppModule<
  R extends readonly RouteDef[] = readonly RouteDef[],
  C extends ErrorCode = ErrorCode,
> extends ModuleDeclarations {
  name: string;
  routes: R;
  /**
   * The module's own problem codes, the list its errors.ts declares (see ModuleErrorCodes in
   * core/errors.ts): src/app.ts joins them to core's into the Problem schema's `code` enum.
   */
  errorCodes?: readonly C[];
  indicators?: readonly Indicator[];
  /** Whether every route checks that the caller's sign-in is still live (identity), or only staff writes. */
  liveSession?: "always" | "staff-writes";
  /** Whether the module's writes stay open for a tenant whose subscription is `nonaktif` (billing). */
  writesWhenInactive?: boolean;
  /** Scheduled work (Cron Triggers); see core/jobs.ts. */
  jobs?: readonly Job[];
  /** Its tenant tables' text columns by SQL table name, classified for export and erasure. */
  personalData?: PersonalDataManifest;
  /** The columns of its tenant tables that hold references to stored files (see FileReference). */
  fileReferences?: readonly FileReference[];
}

/**
 * Keeps each route's literal path, method and endpoint type, so `AppType` (core/http/client-types.ts)
 * can describe every route to `hc` from hono/client, and the literal codes of `errorCodes`, so src/app.ts
 * can tell a code that is in `ErrorCode` but in no module's list.
 */
export function defineModule<const R extends readonly RouteDef[], const C extends ErrorCode = never>(
  module: AppModule<R, C>,
): AppModule<R, C> {
  return module;
}
