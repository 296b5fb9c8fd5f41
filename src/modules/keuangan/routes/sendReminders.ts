import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { sendReminders } from "../pengingat";
import { ReminderInput, ReminderResult } from "../schemas";

export class SendReminders extends Endpoint {
  override schema = {
    tags: ["Iuran"],
    summary: "Remind units in arrears (once per unit per 3 days; held 21:00–07:00 WIB until 07:00)",
    request: { body: { content: { "application/json": { schema: ReminderInput } } } },
    responses: { 200: json(ReminderResult), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await sendReminders({ ctx: tenantCtx(c), input: body }));
  }
}
