import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { LogoutInput } from "../schemas";
import { logout } from "../sessions";
import {
  clearRefreshCookie,
  isWebClient,
  presentedRefreshToken,
  REFRESH_COOKIE,
  WebClientHeaders,
} from "../webClient";

const schema = {
  tags: ["Auth"],
  summary: "Sign out",
  description:
    "Public: the refresh token is the credential (the access token may have expired). Ends that " +
    "token's session, so neither token of it works any longer, and unregisters `pushToken` from push " +
    "notifications when given (a notification service outage does not stop the sign-out). Always 204, " +
    "also for an unknown refresh token, for which nothing is unregistered. API clients send " +
    "`refreshToken` in the body. The web app sends `X-Warga-Client: web` from its own origin (403 " +
    "`origin_refused` otherwise): the session is its HttpOnly cookie's, and the cookie is cleared.",
  security: [],
  request: {
    headers: WebClientHeaders,
    body: { content: { "application/json": { schema: LogoutInput } } },
  },
  responses: {
    204: { description: "Signed out (also for an unknown or already ended session)" },
    ...problems(400, 403),
  },
};

export class Logout extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const web = isWebClient(c);
    if (web) {
      // Signed out on this browser whatever the session's state: no cookie is the same as an unknown one.
      const refreshToken = getCookie(c, REFRESH_COOKIE);
      if (refreshToken) {
        await logout({ ctx: platformCtx(c), input: { ...body, refreshToken } });
      }
      clearRefreshCookie(c);
      return c.body(null, 204);
    }
    await logout({
      ctx: platformCtx(c),
      input: { ...body, refreshToken: presentedRefreshToken(c, web, body) },
    });
    return c.body(null, 204);
  }
}
