import { OpenAPIRoute } from "chanfana";
import { z } from "zod";
import { problemResponses } from "../../http/problem";
import { PutTemplateBody, Template, TemplateCode } from "../../schemas";
import { putTemplate } from "../../services/templates";
import { type AppContext, ctxOf, jsonBody, jsonContent } from "../shared";

export class PutTemplate extends OpenAPIRoute {
  override schema = {
    tags: ["Templates"],
    summary: "Create or replace a template",
    description:
      "Placeholders are `{{ name }}` or `{{ a.b }}`. Values are HTML-escaped in the html part; variables whose name ends in Url or Link must be http(s) or render as `#`.",
    request: { params: z.object({ code: TemplateCode }), body: jsonBody(PutTemplateBody) },
    responses: {
      "200": jsonContent("Replaced", Template),
      "201": jsonContent("Created", Template),
      ...problemResponses(400, 415),
    },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const { template, created } = await putTemplate(ctxOf(c), { ...body, code: params.code });
    return c.json(template, created ? 201 : 200);
  }
}
