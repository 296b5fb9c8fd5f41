import fc from "fast-check";

/**
 * fast-check arbitraries from the JSON Schema that `/openapi.json` publishes for each operation's
 * request (chanfana's rendering of our zod schemas): valid values, and values that break exactly one
 * rule of the schema. The subset handled is the subset the API uses (objects, strings with length,
 * pattern, enum and format, numbers with bounds, booleans, arrays, `type: [x, "null"]`); anything else
 * fails loudly so a new kind of schema cannot be fuzzed by accident with nothing.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

const ULID = fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/);

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) {
    return schema.type;
  }
  if (schema.type) {
    return [schema.type];
  }
  if (schema.enum) {
    return ["enum"];
  }
  return ["any"];
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.enum) {
    return fc.constantFrom(...(schema.enum as string[]));
  }
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 60, Math.max(min, 60));
  if (schema.format === "email") {
    // The address's own pattern too, where the schema states one (the API's: zod's, issue 42).
    const pattern = schema.pattern ? new RegExp(schema.pattern) : undefined;
    return fc
      .emailAddress()
      .filter((e) => e.length <= (schema.maxLength ?? 254) && (!pattern || pattern.test(e)));
  }
  if (schema.format === "date") {
    return fc
      .date({
        min: new Date("2020-01-01T00:00:00Z"),
        max: new Date("2030-12-31T00:00:00Z"),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10));
  }
  if (schema.format === "date-time") {
    return fc
      .date({
        min: new Date("2026-12-01T00:00:00Z"),
        max: new Date("2027-01-31T00:00:00Z"),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString());
  }
  if (schema.format === "uri") {
    return fc.webUrl();
  }
  if (schema.pattern) {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Number.MAX_SAFE_INTEGER));
  }
  // Printable text (Indonesian names carry spaces and apostrophes), trimmed so `.trim().min()` holds.
  return fc
    .string({
      unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ'-.0123456789"),
      minLength: min,
      maxLength: max,
    })
    .map((s) => (s.trim().length >= min ? s : "x".repeat(Math.max(min, 1))))
    .map((s) =>
      s
        .trim()
        .padEnd(min, "x")
        .slice(0, max || undefined),
    );
}

function validNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
  const max =
    schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000_000);
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

export function validOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  const options = types.map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "string":
      case "enum":
        return validString(schema);
      case "integer":
        return validNumber(schema, true);
      case "number":
        return validNumber(schema, false);
      case "boolean":
        return fc.boolean();
      case "array":
        return fc.array(validOf(schema.items ?? {}), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 5, 5),
        });
      case "object":
        return validObject(schema);
      case "any":
        return fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean());
      default:
        throw new Error(`schema type ${type} is not handled by the fuzz arbitraries`);
    }
  });
  return options.length === 1 ? (options[0] as fc.Arbitrary<unknown>) : fc.oneof(...options);
}

function validObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, prop] of Object.entries(props)) {
    record[name] = validOf(prop);
  }
  return fc.record(record, { requiredKeys: [...required].filter((k) => k in props) }) as fc.Arbitrary<
    Record<string, unknown>
  >;
}

/**
 * The wrong JSON types for this schema, one arbitrary each (a string, a number, a boolean, an object, an
 * array, null: those the schema does not admit).
 */
function wrongTypeOptions(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  const types = new Set(typesOf(schema));
  const candidates: fc.Arbitrary<unknown>[] = [];
  if (!types.has("string") && !types.has("enum") && !types.has("any")) {
    candidates.push(fc.string({ maxLength: 10 }));
  }
  if (!types.has("integer") && !types.has("number") && !types.has("any")) {
    candidates.push(fc.integer());
  }
  if (!types.has("boolean") && !types.has("any")) {
    candidates.push(fc.boolean());
  }
  if (!types.has("object")) {
    candidates.push(fc.constant({ nested: { deep: [1, 2, 3] } }));
  }
  if (!types.has("array")) {
    candidates.push(fc.constant([]));
  }
  if (!types.has("null")) {
    candidates.push(fc.constant(null));
  }
  return candidates;
}

/** A value of the wrong JSON type for this schema. */
function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof(...wrongTypeOptions(schema));
}

/**
 * The rules of a string or number schema, each with the values of the right type that break it (length,
 * pattern, enum, bounds, control characters, a fraction for an integer); empty for other types.
 */
function brokenRuleGroups(schema: JsonSchema): unknown[][] {
  const types = typesOf(schema);
  if (types.includes("string") || types.includes("enum")) {
    const groups: unknown[][] = [["Nama\u0000", "Budi\u001b[31m", "abc\u202Egpj.exe", "a\u007fb"]];
    if (schema.maxLength !== undefined) {
      groups.push(["y".repeat(schema.maxLength + 1)]);
    }
    if ((schema.minLength ?? 0) > 0) {
      groups.push([""]);
    }
    if (schema.enum) {
      groups.push(["bukan-pilihan"]);
    }
    if (schema.pattern || schema.format) {
      groups.push(["!!not-matching!!"]);
    }
    return groups;
  }
  if (types.includes("integer") || types.includes("number")) {
    const groups: unknown[][] = [["NaN"]];
    if (schema.maximum !== undefined) {
      groups.push([schema.maximum + 1]);
    }
    if (schema.minimum !== undefined) {
      groups.push([schema.minimum - 1]);
    }
    if (types.includes("integer")) {
      groups.push([1.5]);
    }
    return groups;
  }
  return [];
}

/** Values of the right type that break one of its rules (length, pattern, enum, bounds, control characters). */
function brokenRule(schema: JsonSchema): fc.Arbitrary<unknown> | null {
  const groups = brokenRuleGroups(schema);
  return groups.length ? fc.oneof(...groups.map((g) => fc.constantFrom(...g))) : null;
}

/**
 * An object body that breaks exactly one rule: a required field missing, one field of the wrong type
 * or breaking its own rule, or the body not an object at all.
 */
export function invalidBodyOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  const props = Object.entries(schema.properties ?? {});
  const required = (schema.required ?? []).filter((k) => schema.properties?.[k]);
  const base = validObject(schema);
  const mutations: fc.Arbitrary<unknown>[] = [fc.constantFrom("a string", 42, true, [1, 2], null)];
  if (required.length > 0) {
    mutations.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([body, key]) => {
        const copy = { ...body };
        delete copy[key];
        return copy;
      }),
    );
  }
  for (const [name, prop] of props) {
    mutations.push(base.chain((body) => wrongType(prop).map((bad) => ({ ...body, [name]: bad }))));
    const broken = brokenRule(prop);
    if (broken) {
      mutations.push(base.chain((body) => broken.map((bad) => ({ ...body, [name]: bad }))));
    }
  }
  return fc.oneof(...mutations);
}

/** Query strings: each parameter valid, or (for the invalid run) one made out of its range. */
export function queryOf(params: { name: string; schema: JsonSchema; required?: boolean }[], valid: boolean) {
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of params) {
    record[p.name] = validOf(p.schema);
  }
  const base = fc.record(record, { requiredKeys: params.filter((p) => p.required).map((p) => p.name) });
  if (valid || params.length === 0) {
    return base;
  }
  return fc.oneof(
    ...params.map((p) =>
      base.chain((q) =>
        (brokenRule(p.schema) ?? wrongType(p.schema)).map((bad) => ({ ...q, [p.name]: bad })),
      ),
    ),
  );
}

export const ulid = ULID;

/**
 * Every bad value the fuzz knows for one field or parameter, each labelled with its kind: one of each
 * wrong JSON type (drawn with `seed`) and every value that breaks one of its rules.
 */
export function badValuesOf(schema: JsonSchema, seed: number): { kind: string; value: unknown }[] {
  const out: { kind: string; value: unknown }[] = [];
  for (const [i, option] of wrongTypeOptions(schema).entries()) {
    const [value] = fc.sample(option, { numRuns: 1, seed: seed + i });
    out.push({
      kind: `wrong type ${value === null ? "null" : Array.isArray(value) ? "array" : typeof value}`,
      value,
    });
  }
  for (const value of brokenRuleGroups(schema).flat()) {
    out.push({ kind: `broken rule ${JSON.stringify(value).slice(0, 24)}`, value });
  }
  return out;
}

/** A generated request of the coverage-driven fuzz: its query and body, and what it breaks. */
export interface CoverageCase {
  label: string;
  query: Record<string, unknown>;
  body: unknown;
  /** The body breaks a rule of its schema, so the route must not accept it. */
  bodyBroken: boolean;
}

type Param = { name: string; schema: JsonSchema; required?: boolean };

/**
 * The requests the fuzz sends for one operation, chosen for coverage instead of sampled at random
 * (issue 49: the same assurance in a fraction of the requests), all from `seed` so a failure replays:
 * - invalid: for every body field and every query parameter, each of its bad values (`badValuesOf`)
 *   in an otherwise valid request; every required field left out in turn; and bodies that are not
 *   objects (a string, a number, a boolean, an array, null);
 * - valid: `validRuns` valid requests, the one with only the required fields, and each value of every
 *   enumerated field or parameter at least once.
 * The other fields of each request come from a few valid bases drawn from the schema, taken in turn.
 */
export function coverageCases(
  params: Param[],
  body: JsonSchema | undefined,
  seed: number,
  validRuns: number,
): { invalid: CoverageCase[]; valid: CoverageCase[] } {
  const bases = fc.sample(
    fc.record({
      query: queryOf(params, true),
      body: body ? validObject(body) : fc.constant(undefined),
    }),
    { numRuns: Math.max(validRuns, 1), seed },
  ) as { query: Record<string, unknown>; body: Record<string, unknown> | undefined }[];
  let turn = 0;
  const base = () => bases[turn++ % bases.length] as (typeof bases)[number];
  const invalid: CoverageCase[] = [];
  const valid: CoverageCase[] = bases.map((b, i) => ({ label: `valid ${i}`, ...b, bodyBroken: false }));
  for (const p of params) {
    for (const bad of badValuesOf(p.schema, seed)) {
      const b = base();
      invalid.push({
        label: `query ${p.name}: ${bad.kind}`,
        query: { ...b.query, [p.name]: bad.value },
        body: b.body,
        bodyBroken: false,
      });
    }
    for (const value of p.schema.enum ?? []) {
      const b = base();
      valid.push({
        label: `query ${p.name}=${value}`,
        query: { ...b.query, [p.name]: value },
        body: b.body,
        bodyBroken: false,
      });
    }
  }
  if (body) {
    const props = body.properties ?? {};
    const required = (body.required ?? []).filter((k) => k in props);
    for (const value of ["a string", 42, true, [1, 2], null]) {
      invalid.push({
        label: `body ${JSON.stringify(value)}`,
        query: base().query,
        body: value,
        bodyBroken: true,
      });
    }
    for (const key of required) {
      const b = base();
      const copy = { ...b.body };
      delete copy[key];
      invalid.push({ label: `body without ${key}`, query: b.query, body: copy, bodyBroken: true });
    }
    for (const [name, prop] of Object.entries(props)) {
      for (const bad of badValuesOf(prop, seed)) {
        const b = base();
        invalid.push({
          label: `body ${name}: ${bad.kind}`,
          query: b.query,
          body: { ...b.body, [name]: bad.value },
          bodyBroken: true,
        });
      }
      for (const value of prop.enum ?? []) {
        const b = base();
        valid.push({
          label: `body ${name}=${JSON.stringify(value)}`,
          query: b.query,
          body: { ...b.body, [name]: value },
          bodyBroken: false,
        });
      }
    }
    const b = base();
    const minimal = Object.fromEntries(Object.entries(b.body ?? {}).filter(([k]) => required.includes(k)));
    valid.push({ label: "valid, required fields only", query: b.query, body: minimal, bodyBroken: false });
  }
  return { invalid, valid };
}
