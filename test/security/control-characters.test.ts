import { describe, expect, it } from "vitest";
import { hasUnsafeText, Line, Paragraph } from "../../src/core/schemas";
import { callJson, createTenant, expectProblem, operatorToken, unique } from "../helpers/harness";
import { GUEST_PAPERS } from "../modules/visitor/factories";

/**
 * Issue 12, fix 6: no text field stores a NUL, an ANSI escape, DEL or a bidi override, one-line fields
 * take no line break, and multi-line fields keep theirs. A few representative routes, one per kind of
 * field (a name, a letterhead line, a title, a message, an operator's field).
 */

type Answer = { status: number; headers: Headers; body: Record<string, unknown> };

interface Route {
  name: string;
  field: string;
  multiLine: boolean;
  /** Sends the route's otherwise valid body with `field` set to `value`. */
  send(value: string): Promise<Answer>;
  /** The stored value as the API reads it back after a successful `send`. */
  stored(res: Answer): Promise<unknown>;
}

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

let residentSeq = 0;

async function routes(): Promise<Route[]> {
  const tenant = await createTenant();
  residentSeq += 1;
  const warga = await tenant.member("warga", {
    unitId: `unit-cc-${residentSeq}`,
    whatsapp: `628120009${String(residentSeq).padStart(4, "0")}`,
  });
  const admin = await tenant.member("admin");
  const operator = await operatorToken();
  const ticket = await callJson<{ id: string }>("/api/support-tickets", {
    token: admin.token,
    body: { category: "teknis", title: "Laporan kas", detail: "Tombol unduh diam saja." },
  });
  expect(ticket.status).toBe(201);
  return [
    {
      name: "a guest's name",
      field: "guestName",
      multiLine: false,
      send: (value) =>
        callJson("/api/visitor", {
          token: warga.token,
          body: { guestName: value, purpose: "Silaturahmi", visitAt: inHours(2), ...GUEST_PAPERS },
        }),
      stored: async (res) => res.body.guestName,
    },
    {
      name: "a letterhead line",
      field: "kelurahan",
      multiLine: false,
      send: (value) =>
        callJson("/api/surat/settings", { method: "PUT", token: admin.token, body: { kelurahan: value } }),
      stored: async () => (await callJson("/api/surat/settings", { token: admin.token })).body.kelurahan,
    },
    {
      name: "a complaint's title",
      field: "title",
      multiLine: false,
      send: (value) =>
        callJson("/api/pengaduan", {
          token: warga.token,
          body: { title: value, description: "Lampu di depan blok C mati", category: "infrastruktur" },
        }),
      stored: async (res) => res.body.title,
    },
    {
      name: "a support ticket's message",
      field: "message",
      multiLine: true,
      send: (value) =>
        callJson(`/api/support-tickets/${ticket.body.id}/messages`, {
          token: admin.token,
          body: { message: value },
        }),
      stored: async (res) => (res.body.messages as { message: string }[]).at(-1)?.message,
    },
    {
      name: "a tenant's name, set by the operator",
      field: "name",
      multiLine: false,
      send: (value) =>
        callJson("/api/platform/tenants", {
          token: operator,
          body: {
            slug: unique("rt-cc"),
            name: value,
            type: "RT",
            admin: { name: "Ketua Uji", email: `${unique("ketua")}@warga.test` },
          },
        }),
      stored: async (res) => res.body.name,
    },
  ];
}

const UNSAFE: [string, string][] = [
  ["NUL", "Budi\u0000Santoso"],
  ["an ANSI escape", "\u001b[31mBudi Santoso"],
  ["DEL", "Budi\u007fSantoso"],
  ["a right-to-left override", "Budi \u202Eosotnas"],
];

const fieldsOf = (res: Answer) => (res.body.errors as { field: string }[] | undefined)?.map((e) => e.field);

describe("control characters in text fields", () => {
  it("refuses NUL, ANSI escapes, DEL and bidi overrides with a 400 naming the field", async () => {
    for (const route of await routes()) {
      for (const [what, value] of UNSAFE) {
        const res = await route.send(value);
        expectProblem(res, 400, "invalid_input");
        expect(fieldsOf(res), `${route.name}, ${what}`).toContain(route.field);
      }
    }
  });

  it("refuses a line break in a one-line field and keeps it in a multi-line one", async () => {
    for (const route of await routes()) {
      const res = await route.send("Baris pertama\nbaris kedua");
      if (route.multiLine) {
        expect(res.status, route.name).toBeLessThan(300);
        expect(await route.stored(res), route.name).toBe("Baris pertama\nbaris kedua");
      } else {
        expectProblem(res, 400, "invalid_input");
        expect(fieldsOf(res), route.name).toContain(route.field);
      }
    }
  });

  it("takes ordinary Indonesian text with accents and apostrophes as written", async () => {
    const text = "Jum'at bersama Bu Ratna & Pak Andrés — RT 05/RW 02";
    for (const route of await routes()) {
      const res = await route.send(text);
      expect(res.status, `${route.name}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      expect(await route.stored(res), route.name).toBe(text);
    }
  });
});

/** Issue 12, fix 6: the field primitives every module's one-line and multi-line text goes through. */

describe("hasUnsafeText", () => {
  it("flags C0 controls, DEL, C1 controls and bidi overrides and isolates", () => {
    for (const c of [
      "\u0000",
      "\u0007",
      "\u0008",
      "\u000b",
      "\u000c",
      "\u001b",
      "\u001f",
      "\u007f",
      "\u0085",
      "\u009f",
    ]) {
      expect(hasUnsafeText(`a${c}b`), JSON.stringify(c)).toBe(true);
    }
    for (const c of [
      "\u202a",
      "\u202b",
      "\u202c",
      "\u202d",
      "\u202e",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
    ]) {
      expect(hasUnsafeText(`a${c}b`), JSON.stringify(c)).toBe(true);
    }
  });

  it("leaves line breaks, tabs and ordinary Unicode alone", () => {
    for (const text of ["a\nb", "a\r\nb", "a\tb", "Jum'at — Pak Andrés", "Ñandú 😀", "\u00a0", "\u200d"]) {
      expect(hasUnsafeText(text), JSON.stringify(text)).toBe(false);
    }
  });
});

describe("Line", () => {
  const line = Line(10, 2);

  it("trims, then applies its bounds", () => {
    expect(line.parse("  Budi  ")).toBe("Budi");
    expect(line.safeParse(" B ").success).toBe(false);
    expect(line.safeParse("x".repeat(11)).success).toBe(false);
  });

  it("refuses control characters and every line break, tab included", () => {
    for (const text of [
      "Bu\u0000di",
      "\u001b[31mBudi",
      "Bu\u007fdi",
      "Bu\u202edi",
      "Bu\ndi",
      "Bu\rdi",
      "Bu\tdi",
    ]) {
      expect(line.safeParse(text).success, JSON.stringify(text)).toBe(false);
    }
  });

  it("defaults to at least one character", () => {
    expect(Line(5).safeParse("   ").success).toBe(false);
    expect(Line(5, 0).parse("   ")).toBe("");
  });
});

describe("Paragraph", () => {
  const paragraph = Paragraph(20, 3);

  it("keeps line breaks, turning CRLF and CR into LF, and trims the ends", () => {
    expect(paragraph.parse("  satu\r\ndua\rtiga\n ")).toBe("satu\ndua\ntiga");
  });

  it("refuses other control characters", () => {
    for (const text of ["sa\u0000tu", "\u001b[31msatu", "sa\u007ftu", "sa\u202etu"]) {
      expect(paragraph.safeParse(text).success, JSON.stringify(text)).toBe(false);
    }
  });

  // The bounds hold for the text as sent (so /openapi.json's minLength and maxLength are the run time's,
  // issue 42) and again once normalised (blank padding does not reach the minimum).
  it("checks its bounds as sent and after normalising", () => {
    expect(paragraph.safeParse("  ab  ").success).toBe(false);
    expect(paragraph.safeParse(`${"x".repeat(18)}\r\n`).success).toBe(true);
    expect(paragraph.safeParse(`${"x".repeat(19)}\r\n`).success).toBe(false);
    expect(paragraph.safeParse("x".repeat(21)).success).toBe(false);
  });
});
