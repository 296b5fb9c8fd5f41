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

/** A value of the wrong JSON type for this schema. */
function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> {
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
  return fc.oneof(...candidates);
}

/** Values of the right type that break one of its rules (length, pattern, enum, bounds, control characters). */
function brokenRule(schema: JsonSchema): fc.Arbitrary<unknown> | null {
  const types = typesOf(schema);
  if (types.includes("string") || types.includes("enum")) {
    const options: fc.Arbitrary<unknown>[] = [
      fc.constantFrom("Nama\u0000", "Budi\u001b[31m", "abc\u202Egpj.exe", "a\u007fb"),
    ];
    if (schema.maxLength !== undefined) {
      options.push(fc.constant("y".repeat(schema.maxLength + 1)));
    }
    if ((schema.minLength ?? 0) > 0) {
      options.push(fc.constant(""));
    }
    if (schema.enum) {
      options.push(fc.constant("bukan-pilihan"));
    }
    if (schema.pattern || schema.format) {
      options.push(fc.constant("!!not-matching!!"));
    }
    return fc.oneof(...options);
  }
  if (types.includes("integer") || types.includes("number")) {
    const options: fc.Arbitrary<unknown>[] = [fc.constant(Number.NaN).map(() => "NaN")];
    if (schema.maximum !== undefined) {
      options.push(fc.constant(schema.maximum + 1));
    }
    if (schema.minimum !== undefined) {
      options.push(fc.constant(schema.minimum - 1));
    }
    if (types.includes("integer")) {
      options.push(fc.constant(1.5));
    }
    return fc.oneof(...options);
  }
  return null;
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
