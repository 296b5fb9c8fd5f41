/**
 * A small JSON Schema checker for the subset `/openapi.json` uses in responses ($ref, type (or a list
 * of types), properties, required, items, enum, allOf, additionalProperties). workerd forbids code
 * generation, so validators that compile schemas (ajv) do not run here. Returns the problems found.
 */
export type Schema = Record<string, unknown>;

export function check(value: unknown, schema: Schema, root: Schema, path = "$"): string[] {
  if (typeof schema.$ref === "string") {
    const target = schema.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root);
    return target ? check(value, target as Schema, root, path) : [`${path}: unresolved ${schema.$ref}`];
  }
  const problems: string[] = [];
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf as Schema[]) {
      problems.push(...check(value, part, root, path));
    }
  }
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : schema.type
      ? [schema.type as string]
      : [];
  if (types.length > 0 && !types.some((t) => isType(value, t))) {
    return [...problems, `${path}: expected ${types.join("|")}, got ${JSON.stringify(value)?.slice(0, 60)}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => e === value)) {
    problems.push(`${path}: ${JSON.stringify(value)} not in enum`);
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? []) {
      if (!(key in record)) {
        problems.push(`${path}.${key}: required`);
      }
    }
    const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const [key, item] of Object.entries(record)) {
      if (props[key]) {
        problems.push(...check(item, props[key], root, `${path}.${key}`));
      } else if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
        problems.push(...check(item, schema.additionalProperties as Schema, root, `${path}.${key}`));
      }
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => {
      problems.push(...check(item, schema.items as Schema, root, `${path}[${i}]`));
    });
  }
  return problems;
}

function isType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    default:
      return true;
  }
}
