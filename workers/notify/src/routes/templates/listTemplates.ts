import { OpenAPIRoute } from "chanfana";
import { z } from "zod";
import { problemResponses } from "../../http/problem";
import { TemplateSummary } from "../../schemas";
import { listTemplates } from "../../services/templates";
import { type AppContext, ctxOf, jsonContent } from "../shared";

export class ListTemplates extends OpenAPIRoute {
  override schema = {
    tags: ["Templates"],
    summary: "List templates (without their bodies)",
    responses: {
      "200": jsonContent(
        "All templates; a short, fixed set, so not paginated",
        z.object({ items: z.array(TemplateSummary) }),
      ),
      ...problemResponses(),
    },
  };

  override async handle(c: AppContext) {
    return c.json({ items: await listTemplates(ctxOf(c)) });
  }
}
