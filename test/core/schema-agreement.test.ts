import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { TenantRole } from "../../src/core/context";
import { pdfRendering } from "../../src/platform/pdf";
import { admittedCaller } from "../helpers/callers";
import { call, createTenant, operatorToken } from "../helpers/harness";
import { type JsonSchema, validOf } from "../helpers/openapi-arbitrary";

/**
 * Issue 42 item 5: the schema in /openapi.json and the run time agree, field by field. For every
 * operation with a JSON body, each top-level field is sent at the edges its schema states (one short of
 * `minLength` and exactly it, `maxLength` and one more, `minimum` and one less, `maximum` and one more,
 * an enum member and an outsider, a pattern's match and a breach, a format's), the rest of the body
 * valid. A value the schema refuses must be 400 with a field error naming that field; a value it accepts
 * must not be refused with a 400 naming that field. A rule the schema cannot state as a keyword (one
 * field depending on another, a date against the clock) is in IN_WORDS, and the field's description in
 * /openapi.json must say it in words.
 *
 * One request per edge, about two thousand in all: seconds, not minutes.
 */
const SEED = 20261142;

interface Operation {
  method: string;
  path: string;
  requestBody?: { content?: Record<string, { schema?: JsonSchema & { $ref?: string } }> };
}

/**
 * Rules JSON Schema keywords cannot state (one field against another, against the clock, against what
 * is stored, a normalised form): `{operation} {field}` → words the field's description in /openapi.json
 * must contain, so a client generated from it reads the rule there. A value the keywords accept and the
 * run time refuses is a disagreement unless its rule is listed here and said there.
 */
const IN_WORDS: Record<string, string> = {
  "POST /api/auth/login whatsapp": "Indonesian mobile number",
  "POST /api/auth/otp/request whatsapp": "Indonesian mobile number",
  "POST /api/auth/otp/verify whatsapp": "Indonesian mobile number",
  "POST /api/members/invitations whatsapp": "Indonesian mobile number",
  "PUT /api/members/invitations/{id}/contact whatsapp": "Indonesian mobile number",
  "POST /api/platform/tenants/{id}/admin-invitations whatsapp": "Indonesian mobile number",
  "PUT /api/user/profile whatsapp": "Indonesian mobile number",
  "POST /api/platform/contacts/whatsapp/release whatsapp": "Indonesian mobile number",
  "POST /api/auth/reset-password password": "at least 8 characters",
  "POST /api/user/password newPassword": "at least 8 characters",
  "POST /api/support-tickets attachment_url": "image upload of this ticket",
  "PATCH /api/platform/support-tickets/{id} lampiran_url": "image upload of this ticket",
  // Issue 49 (ADR 0047): the family card's WhatsApp is any phone number, kept as international digits.
  "POST /api/kependudukan/kk headWhatsapp": "8 to 15 of them",
  "PUT /api/kependudukan/kk/{id} headWhatsapp": "8 to 15 of them",
  "POST /api/kependudukan/kk/{id}/vehicles plate": "at most 15 letters and digits",
  "PUT /api/kependudukan/kk/{id}/vehicles/{vehicleId} plate": "at most 15 letters and digits",
  "POST /api/visitor vehiclePlate": "at most 15 letters and digits",
  "POST /api/visitor/gate/walk-in vehiclePlate": "at most 15 letters and digits",
  "POST /api/visitor/regular vehiclePlate": "at most 15 letters and digits",
  "POST /api/visitor/regular untilTime": "after fromTime",
  "POST /api/visitor/regular number": "with `block`",
  "POST /api/kependudukan/units latitude": "together with longitude",
  "PUT /api/kependudukan/units/{id} latitude": "together with longitude",
  "POST /api/kependudukan/kk kkNumber": "must hold and agree",
  "PUT /api/kependudukan/kk/{id} kkNumber": "must hold and agree",
  "POST /api/kependudukan/kk headNik": "must hold and agree",
  "POST /api/kependudukan/kk/{id}/members nik": "must hold and agree",
  "PUT /api/kependudukan/kk/{id}/members/{memberId} nik": "must hold and agree",
  "PUT /api/surat/settings numberFormat": "{seq} (or {seq:3}) exactly once and {year}",
  "POST /api/musyawarah endsAt": "After startsAt",
  "POST /api/agenda end": "After start",
  "POST /api/iuran/tagihan/{id}/pembayaran paidAt": "Not in the future",
  "POST /api/kas date": "Not in the future",
  "POST /api/pengeluaran date": "Not in the future",
  "PUT /api/visitor/{id} validFrom": "together with validUntil",
};

/**
 * Codes that judge a value against what is stored (an unknown token, a parent RW that does not exist),
 * not its shape: not a disagreement.
 */
const LOOKUPS = new Set(["token_invalid", "invalid_parent"]);

type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};
let doc: Doc;
const tokens = new Map<string, string>();

beforeAll(async () => {
  doc = (await (await call("/openapi.json")).json()) as Doc;
  const tenant = await createTenant();
  for (const role of ["warga", "bendahara", "sekretaris", "admin", "satpam"] as TenantRole[]) {
    tokens.set(role, (await tenant.member(role)).token);
  }
  tokens.set("super_admin", await operatorToken());
  vi.spyOn(pdfRendering, "create").mockImplementation(() => ({
    render: async () => new TextEncoder().encode("%PDF-1.7\n% agreement stand-in\n%%EOF\n"),
  }));
}, 60_000);

function resolve(schema: (JsonSchema & { $ref?: string; description?: string }) | undefined) {
  if (schema?.$ref) {
    return doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")] as JsonSchema & {
      description?: string;
    };
  }
  return schema;
}

/** A caller the route admits: its admin where the line names one, else the last duty it names. */
function callerHeaders(op: Operation): Record<string, string> {
  return admittedCaller(op.method, op.path, tokens, (roles) =>
    roles.includes("admin") ? "admin" : (roles[roles.length - 1] ?? "admin"),
  );
}

interface Edge {
  label: string;
  value: unknown;
  accepted: boolean;
}

const text = (n: number) => "x".repeat(Math.max(n, 0));
const sample = <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { numRuns: 1, seed: SEED })[0] as T;

/** The edges a field's schema states, each with whether the schema accepts it. */
function edges(schema: JsonSchema): Edge[] {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const out: Edge[] = [];
  if (schema.enum) {
    out.push({ label: "enum member", value: schema.enum[0], accepted: true });
    out.push({ label: "enum outsider", value: "bukan-pilihan", accepted: false });
    return out;
  }
  if (types.includes("string")) {
    if (schema.pattern || schema.format) {
      out.push({ label: "valid", value: sample(validOf(schema)), accepted: true });
      out.push({ label: "pattern/format breach", value: "!!not-matching!!", accepted: false });
      return out;
    }
    const min = schema.minLength ?? 0;
    if (min > 0) {
      out.push({ label: `length ${min - 1} (minLength ${min})`, value: text(min - 1), accepted: false });
    }
    out.push({ label: `length ${Math.max(min, 1)}`, value: text(Math.max(min, 1)), accepted: true });
    if (schema.maxLength !== undefined) {
      out.push({
        label: `length ${schema.maxLength} (maxLength)`,
        value: text(schema.maxLength),
        accepted: true,
      });
      out.push({
        label: `length ${schema.maxLength + 1}`,
        value: text(schema.maxLength + 1),
        accepted: false,
      });
    }
    return out;
  }
  if (types.includes("integer") || types.includes("number")) {
    const min =
      schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
    const max =
      schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
    if (min !== undefined) {
      out.push({ label: `minimum ${min}`, value: min, accepted: true });
      out.push({ label: `minimum - 1`, value: min - 1, accepted: false });
    }
    if (max !== undefined) {
      out.push({ label: `maximum ${max}`, value: max, accepted: true });
      out.push({ label: `maximum + 1`, value: max + 1, accepted: false });
    }
    if (types.includes("integer")) {
      out.push({ label: "not an integer", value: (min ?? 0) + 0.5, accepted: false });
    }
  }
  return out;
}

describe("schema and run time agree on every JSON body's fields", () => {
  it("refuses, naming the field, exactly the edge values the schema refuses", async () => {
    const disagreements: string[] = [];
    let sent = 0;
    let operations = 0;
    let ip = 1;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, raw] of Object.entries(item)) {
        const op = { ...raw, method, path };
        const body = resolve(op.requestBody?.content?.["application/json"]?.schema);
        if (body?.type !== "object" || !body.properties) {
          continue;
        }
        operations++;
        // Only the required fields beside the one under test, so a rule between optional fields (give
        // one of email or whatsapp) does not refuse the body for a reason that is not the edge's.
        const required = new Set(body.required ?? []);
        const base = sample(
          validOf({
            ...body,
            properties: Object.fromEntries(Object.entries(body.properties).filter(([n]) => required.has(n))),
          }),
        ) as Record<string, unknown>;
        const url = path.replace(/\{(\w+)\}/g, "01HZZZZZZZZZZZZZZZZZZZZZZZ");
        for (const [name, propRaw] of Object.entries(body.properties)) {
          const prop = resolve(propRaw) as JsonSchema & { description?: string };
          const key = `${method.toUpperCase()} ${path} ${name}`;
          for (const edge of edges(prop)) {
            sent++;
            const res = await call(url, {
              method: method.toUpperCase(),
              headers: {
                ...callerHeaders(op),
                "Content-Type": "application/json",
                "CF-Connecting-IP": `198.20.${(ip >> 8) & 255}.${ip++ & 255}`,
              },
              body: JSON.stringify({ ...base, [name]: edge.value }),
            });
            let problem: { code?: string; errors?: { field: string }[] } = {};
            if (res.headers.get("Content-Type")?.includes("json")) {
              problem = (await res.json()) as typeof problem;
            } else {
              await res.arrayBuffer();
            }
            const named = (problem.errors ?? []).some(
              (e) => e.field === name || e.field.startsWith(`${name}.`),
            );
            if (edge.accepted && res.status === 400 && named && !LOOKUPS.has(problem.code ?? "")) {
              const words = IN_WORDS[key];
              const said = `${prop.description ?? ""} ${(body as { description?: string }).description ?? ""}`;
              if (!words || !said.includes(words)) {
                disagreements.push(
                  `${key}: schema accepts ${edge.label}, run time refuses it (${problem.code})`,
                );
              }
            }
            if (!edge.accepted && res.status < 300) {
              disagreements.push(`${key}: schema refuses ${edge.label}, run time accepts it (${res.status})`);
            }
            if (!edge.accepted && res.status === 400 && !named) {
              disagreements.push(`${key}: ${edge.label} refused without naming the field (${problem.code})`);
            }
          }
        }
      }
    }
    console.info(`schema agreement: ${operations} operations with a JSON body, ${sent} requests`);
    expect(operations).toBeGreaterThan(80);
    expect(disagreements).toEqual([]);
  }, 600_000);
});
