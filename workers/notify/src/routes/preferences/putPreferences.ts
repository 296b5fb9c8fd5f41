import { OpenAPIRoute } from "chanfana";
import { problemResponses } from "../../http/problem";
import { PreferencesBody, UserIdParam } from "../../schemas";
import { putPreferences } from "../../services/preferences";
import { type AppContext, ctxOf, jsonBody, jsonContent } from "../shared";

export class PutPreferences extends OpenAPIRoute {
  override schema = {
    tags: ["Preferences"],
    summary: "Replace a user's notification preferences",
    description:
      "Fan-outs skip a channel the user turned off and hold other messages during their quiet hours (HH:MM, Asia/Jakarta; start equal to end means none) until they end, unless the message is urgent.",
    request: { params: UserIdParam, body: jsonBody(PreferencesBody) },
    responses: { "200": jsonContent("Stored", PreferencesBody), ...problemResponses(400, 415) },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await putPreferences(ctxOf(c), params.userId, body));
  }
}
