import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreateDeviceInput, CreatedDevice } from "../schemas";
import { createDevice } from "../service";

const schema = {
  tags: ["Gate devices"],
  summary: "Add a gate device",
  description:
    "Admin only, with the guest book (`tamu`) switched on. Registers a device with its name and " +
    "adapter. Its API key is in this answer only: store it on the device.",
  request: { body: { content: { "application/json": { schema: CreateDeviceInput } } } },
  responses: { 201: json(CreatedDevice, "Created"), ...problems(400, 401, 403) },
};

export class CreateDevice extends Endpoint {
  /** The device's API key is shown once: a repeat answers 409 idempotency_answer_unavailable, never a second device and never the key again. */
  static override credentialAnswer = "no-replay" as const;

  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createDevice({ ctx: tenantCtx(c), input: body }), 201);
  }
}
