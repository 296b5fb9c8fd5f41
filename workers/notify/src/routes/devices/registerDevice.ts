import { OpenAPIRoute } from "chanfana";
import { problemResponses } from "../../http/problem";
import { Device, RegisterDeviceBody } from "../../schemas";
import { registerDevice } from "../../services/devices";
import { type AppContext, ctxOf, jsonBody, jsonContent } from "../shared";

export class RegisterDevice extends OpenAPIRoute {
  override schema = {
    tags: ["Devices"],
    summary: "Register (or move and reactivate) a device push token",
    request: { body: jsonBody(RegisterDeviceBody) },
    responses: {
      "200": jsonContent("The token was known; it now belongs to this user and is active", Device),
      "201": jsonContent("Registered", Device),
      ...problemResponses(400, 415),
    },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const { device, created } = await registerDevice(ctxOf(c), body);
    return c.json(device, created ? 201 : 200);
  }
}
