import { OpenAPIRoute } from "chanfana";
import { z } from "zod";
import { problemResponses } from "../../http/problem";
import { PreviewBody, Rendered, TemplateCode } from "../../schemas";
import { previewTemplate } from "../../services/templates";
import { type AppContext, ctxOf, jsonContent } from "../shared";

export class PreviewTemplate extends OpenAPIRoute {
  override schema = {
    tags: ["Templates"],
    summary: "Render a template with its sample data, optionally overridden by `data`",
    request: {
      params: z.object({ code: TemplateCode }),
      body: { required: false, content: { "application/json": { schema: PreviewBody } } },
    },
    responses: {
      "200": jsonContent("Rendered subject, HTML and text", Rendered),
      ...problemResponses(400, 404, 415),
    },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(
      await previewTemplate(ctxOf(c), { code: params.code, locale: body?.locale, data: body?.data }),
    );
  }
}
