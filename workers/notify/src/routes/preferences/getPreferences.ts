import { OpenAPIRoute } from "chanfana";
import { problemResponses } from "../../http/problem";
import { PreferencesBody, UserIdParam } from "../../schemas";
import { getPreferences } from "../../services/preferences";
import { type AppContext, ctxOf, jsonContent } from "../shared";

export class GetPreferences extends OpenAPIRoute {
  override schema = {
    tags: ["Preferences"],
    summary: "A user's notification preferences (the defaults when they never chose)",
    request: { params: UserIdParam },
    responses: {
      "200": jsonContent("Channels and quiet hours (Asia/Jakarta)", PreferencesBody),
      ...problemResponses(400),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getPreferences(ctxOf(c), params.userId));
  }
}
