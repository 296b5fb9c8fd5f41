import { and, asc, eq, sql } from "drizzle-orm";
import { templates } from "../db/schema";
import { invalid, notFound } from "../errors";
import {
  missingVariables,
  placeholdersOf,
  renderTemplate,
  type TemplateData,
  type TemplateParts,
} from "../templates/render";
import type { ServiceContext } from "./context";

export const DEFAULT_LOCALE = "id";

const incrementVersion = sql`${templates.version} + 1`;

type TemplateRow = typeof templates.$inferSelect;

export interface TemplateView {
  code: string;
  locale: string;
  name: string;
  description: string;
  subject: string;
  html: string;
  text: string;
  variables: string[];
  sampleData: Record<string, unknown>;
  version: number;
  createdAt: string;
  updatedAt: string;
}

function view(row: TemplateRow): TemplateView {
  return {
    ...row,
    variables: JSON.parse(row.variables) as string[],
    sampleData: JSON.parse(row.sampleData) as Record<string, unknown>,
  };
}

async function findRow(ctx: ServiceContext, code: string, locale: string): Promise<TemplateRow | undefined> {
  return ctx.db
    .select()
    .from(templates)
    .where(and(eq(templates.code, code), eq(templates.locale, locale)))
    .get();
}

// A locale without its own copy falls back to Indonesian, the language every template is seeded in.
async function resolve(ctx: ServiceContext, code: string, locale?: string): Promise<TemplateView> {
  const row =
    (locale && locale !== DEFAULT_LOCALE ? await findRow(ctx, code, locale) : undefined) ??
    (await findRow(ctx, code, DEFAULT_LOCALE));
  if (!row) {
    throw notFound("template_not_found", `Template ${code} does not exist.`);
  }
  return view(row);
}

export async function listTemplates(
  ctx: ServiceContext,
): Promise<Omit<TemplateView, "html" | "text" | "sampleData">[]> {
  const rows = await ctx.db
    .select()
    .from(templates)
    .orderBy(asc(templates.code), asc(templates.locale))
    .all();
  return rows.map((row) => {
    const { html: _h, text: _t, sampleData: _s, ...rest } = view(row);
    return rest;
  });
}

export async function getTemplate(
  ctx: ServiceContext,
  input: { code: string; locale?: string },
): Promise<TemplateView> {
  const row = await findRow(ctx, input.code, input.locale ?? DEFAULT_LOCALE);
  if (!row) {
    throw notFound(
      "template_not_found",
      `Template ${input.code} (${input.locale ?? DEFAULT_LOCALE}) does not exist.`,
    );
  }
  return view(row);
}

export interface PutTemplateInput {
  code: string;
  locale?: string;
  name: string;
  description?: string;
  subject: string;
  html: string;
  text: string;
  variables?: string[];
  sampleData?: Record<string, unknown>;
}

export async function putTemplate(
  ctx: ServiceContext,
  input: PutTemplateInput,
): Promise<{ template: TemplateView; created: boolean }> {
  const locale = input.locale ?? DEFAULT_LOCALE;
  const used = new Set([input.subject, input.html, input.text].flatMap(placeholdersOf));
  const unknown = (input.variables ?? []).filter((v) => !used.has(v));
  if (unknown.length > 0) {
    throw invalid(
      "invalid_input",
      "Every required variable must appear in the subject, html or text.",
      unknown.map((v) => ({ field: "variables", message: `${v} is not used by the template` })),
    );
  }
  const now = ctx.now().toISOString();
  const values = {
    code: input.code,
    locale,
    name: input.name,
    description: input.description ?? "",
    subject: input.subject,
    html: input.html,
    text: input.text,
    variables: JSON.stringify(input.variables ?? []),
    sampleData: JSON.stringify(input.sampleData ?? {}),
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const existed = (await findRow(ctx, input.code, locale)) !== undefined;
  const row = await ctx.db
    .insert(templates)
    .values(values)
    .onConflictDoUpdate({
      target: [templates.code, templates.locale],
      set: {
        name: values.name,
        description: values.description,
        subject: values.subject,
        html: values.html,
        text: values.text,
        variables: values.variables,
        sampleData: values.sampleData,
        updatedAt: now,
        version: incrementVersion,
      },
    })
    .returning()
    .get();
  return { template: view(row), created: !existed };
}

function brandData(ctx: ServiceContext): TemplateData {
  return {
    brandName: ctx.config.brand.name,
    logoUrl: ctx.config.brand.logoUrl,
    appUrl: ctx.config.brand.appUrl,
    year: String(ctx.now().getUTCFullYear()),
  };
}

export async function renderForSend(
  ctx: ServiceContext,
  input: { code: string; locale?: string; data: TemplateData },
): Promise<TemplateParts> {
  const template = await resolve(ctx, input.code, input.locale);
  const missing = missingVariables(template.variables, input.data);
  if (missing.length > 0) {
    throw invalid(
      "missing_template_variables",
      `Template ${input.code} needs: ${missing.join(", ")}.`,
      missing.map((name) => ({ field: `data.${name}`, message: "required by the template" })),
    );
  }
  return renderTemplate(template, { ...brandData(ctx), ...input.data });
}

export async function previewTemplate(
  ctx: ServiceContext,
  input: { code: string; locale?: string; data?: TemplateData },
): Promise<TemplateParts> {
  const template = await resolve(ctx, input.code, input.locale);
  return renderTemplate(template, { ...brandData(ctx), ...template.sampleData, ...(input.data ?? {}) });
}
