import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { readDeviceBody } from "../adapters";
import { GenericEvent, WebhookAnswer } from "../schemas";
import { handleWebhook } from "../service";

/**
 * Built once: chanfana constructs the endpoint on every request, and a class field would rebuild this
 * object (and its response entries) each time. Kept for the OpenAPI document; the body itself is read by
 * the device's adapter (the generic adapter checks it against `GenericEvent`).
 */
const schema = {
  tags: ["Gate devices"],
  summary: "Receive a gate device's event",
  description:
    "Gate devices only, by their API key as `Authorization: Bearer <key>`, with `tamu` on. Events: " +
    "qr_scan (checks the scanned pass in or out like the gate routes and answers open or deny with " +
    "the reason), door_opened and heartbeat. Valid key: 200 with `{ action, reason }`. Missing key: " +
    "401 `missing_device_key`; unknown or deleted key: 401 `invalid_device_key`; deactivated device: " +
    "403 `device_inactive`; suspended community: 403 `tenant_suspended`; guest book switched off: 403 " +
    "`feature_disabled`; 400 `unsupported_event`. The body depends on the device's adapter: `generic` " +
    "takes the JSON shown here; `hikvision` takes ISAPI EventNotificationAlert JSON (or multipart " +
    "with an `event_log` part); see docs/gate-hardware.md for the mapping.",
  security: [{ gateDeviceKey: [] }],
  request: { body: { content: { "application/json": { schema: GenericEvent } } } },
  responses: { 200: json(WebhookAnswer), ...problems(400, 401, 403) },
};

export class GateWebhook extends Endpoint {
  override schema = schema;

  /** Not validated by chanfana: the body's shape depends on the device's adapter. */
  override async handle(c: Context<RouteEnv>) {
    const after = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
    return c.json(await handleWebhook({ ctx: tenantCtx(c), input: await readDeviceBody(c.req.raw), after }));
  }
}
