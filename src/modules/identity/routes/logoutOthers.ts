import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LoggedOutOthers } from "../schemas";
import { logoutOthers } from "../sessions";

const schema = {
  tags: ["Auth"],
  summary: "Sign out everywhere else",
  description:
    "Any signed-in user, for their own account: ends every other session of it, in every community " +
    "and on every device (a lost phone, a shared computer), so no access or refresh token of those " +
    "works any longer. The caller's own session is kept: to sign out everywhere, end it next with " +
    "POST /api/auth/logout (the web app's cookie is cleared there). Push tokens stay registered until " +
    "each device signs out or FCM drops them. Answers how many sessions were ended.",
  responses: { 200: json(LoggedOutOthers), ...problems(401, 403) },
};

export class LogoutOthers extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json({ ended: await logoutOthers({ ctx: platformCtx(c) }) });
  }
}
