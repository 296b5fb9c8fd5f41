import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { VapidKey } from "../schemas";

const schema = {
  tags: ["User"],
  summary: "The Web Push key the web app subscribes with",
  description:
    "Any signed-in user. The VAPID public key (RFC 8292) the browser's push subscription is made " +
    "with, for `POST /api/user/push-tokens` with `platform: web`; `null` where Web Push is not set up " +
    "(the app then offers no notifications on the device). Not a secret: the same for everyone.",
  responses: { 200: json(VapidKey), ...problems(401) },
};

export class GetVapidKey extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json({ publicKey: platformCtx(c).config.VAPID_PUBLIC_KEY ?? null });
  }
}
