import { z } from "zod";
import type { FieldError } from "../../core/errors";
import { type FieldDef, IDENTITY_LABELS, type JenisDef } from "./jenis";

/** A letter type's extra fields as a form clients build and the request's validation. */
function fieldSchema(def: FieldDef): z.ZodType {
  const text = (max: number) => {
    const base = z.string().trim().min(1).max(max);
    return def.pattern ? base.regex(new RegExp(def.pattern.regex), def.pattern.message) : base;
  };
  switch (def.type) {
    case "text":
      return text(200);
    case "textarea":
      return text(1000);
    case "number":
      return z.number().int().min(0).max(100_000);
    case "money":
      return z.number().int().min(0).max(10_000_000_000);
    case "date":
      return z.iso.date();
    case "datetime":
      return z.iso.datetime({ local: true, offset: true });
    case "select":
      return z.enum((def.options ?? []).map((o) => o.value) as [string, ...string[]]);
    case "member":
      return z.string().min(1).max(64);
    case "members":
      return z.array(z.string().min(1).max(64)).min(1).max(30);
  }
}

/**
 * Validates a request's additional fields against its type. Unknown fields are refused, so a typo in
 * a field name is a 400 rather than a silently empty line on an official letter.
 */
export function validateFields(
  def: JenisDef,
  input: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; errors: FieldError[] } {
  const shape = Object.fromEntries(
    def.fields.map((field) => {
      const schema = fieldSchema(field);
      return [field.name, field.required && !field.requiredUnless ? schema : schema.optional()];
    }),
  );
  const parsed = z.strictObject(shape).safeParse(input ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => ({
        field: ["fields", ...(i.code === "unrecognized_keys" ? i.keys.slice(0, 1) : i.path)].join("."),
        message: i.message,
      })),
    };
  }
  const value = parsed.data as Record<string, unknown>;
  const missing = def.fields.filter(
    (field) =>
      field.requiredUnless && value[field.name] === undefined && value[field.requiredUnless] === undefined,
  );
  if (missing.length) {
    return {
      ok: false,
      errors: missing.map((field) => ({
        field: `fields.${field.name}`,
        message: `required unless ${field.requiredUnless} is given`,
      })),
    };
  }
  return { ok: true, value };
}

/** The public shape of a type, for `GET /api/surat/jenis`. */
export function presentJenis(def: JenisDef) {
  return {
    code: def.code,
    name: def.name,
    description: def.description,
    validityDays: def.validityDays,
    identity: def.identity.map((name) => ({ name, label: IDENTITY_LABELS[name] })),
    fields: def.fields.map((field) => ({
      name: field.name,
      label: field.label,
      type: field.type,
      required: field.required && !field.requiredUnless,
      options: field.options ?? null,
      requiredUnless: field.requiredUnless ?? null,
      pattern: field.pattern?.regex ?? null,
    })),
  };
}
