import { OpenAPIRoute } from "chanfana";
import { z } from "zod";
import { problemResponses } from "../../http/problem";
import { Locale, Template, TemplateCode } from "../../schemas";
import { getTemplate } from "../../services/templates";
import { type AppContext, ctxOf, jsonContent } from "../shared";

export class GetTemplate extends OpenAPIRoute {
  override schema = {
    tags: ["Templates"],
    summary: "Read one template",
    request: { params: z.object({ code: TemplateCode }), query: z.object({ locale: Locale.optional() }) },
    responses: { "200": jsonContent("The template", Template), ...problemResponses(400, 404) },
  };

  override async handle(c: AppContext) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getTemplate(ctxOf(c), { code: params.code, locale: query.locale }));
  }
}
