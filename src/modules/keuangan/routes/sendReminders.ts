import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { sendReminders } from "../iuran/pengingat";
import { ReminderInput, ReminderResult } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Remind units in arrears",
  description:
    "The treasurer and admin. Sends a payment reminder (WhatsApp, else email) to the residents of " +
    "every unit in arrears, or of the given `unitIds`. A unit is reminded at most once per 3 days, " +
    "decided atomically per unit; between 21:00 and 07:00 WIB nothing is sent: the reminders are held " +
    "and go out at 07:00. The answer counts the units queued (sent now or held until 07:00) and those " +
    "skipped: no arrears, reminded less than 3 days ago, or no resident with WhatsApp or email.",
  request: { body: { content: { "application/json": { schema: ReminderInput } } } },
  responses: { 200: json(ReminderResult), ...problems(400, 401, 403) },
};

export class SendReminders extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await sendReminders({ ctx: tenantCtx(c), input: body }));
  }
}
