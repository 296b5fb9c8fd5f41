import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { logoutEverywhere } from "../sessions";
import { clearRefreshCookie, isWebClient, WebClientHeaders } from "../webClient";

export class LogoutEverywhere extends Endpoint {
  override schema = {
    tags: ["Auth"],
    summary: "Sign out everywhere",
    description:
      "Any signed-in user, for their own account: ends every session of it, in every community and on " +
      "every device, this one included, so no access or refresh token of theirs works any longer (a " +
      "lost phone, a shared computer). Push tokens stay registered until each device signs out or FCM " +
      "drops them. The web app (`X-Warga-Client: web`, own origin only: 403 `origin_refused` otherwise) " +
      "also has its refresh cookie cleared. Always 204 for a live session.",
    request: { headers: WebClientHeaders },
    responses: {
      204: { description: "Every session of the account has ended" },
      ...problems(401, 403),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const web = isWebClient(c);
    await logoutEverywhere({ ctx: platformCtx(c) });
    if (web) {
      clearRefreshCookie(c);
    }
    return c.body(null, 204);
  }
}
