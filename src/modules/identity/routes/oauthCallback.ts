import type { Context } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { finishOAuth, STATE_COOKIE } from "../oauth/flow";
import { OAuthCallbackQuery, ProviderParam } from "../schemas";

const schema = {
  tags: ["Auth"],
  summary: "Finish an OpenID Connect sign-in at the provider's return",
  description:
    "Public; the provider redirects the browser here. Checks the state against the cookie, exchanges " +
    "the code, verifies the ID token (signature, nonce, expiry, a verified email) and finds the " +
    "account by that email: no account is created. Always redirects (302) to " +
    "`{CLIENT_URL}/auth/callback` with a one-time `code` for `POST /api/auth/oauth/exchange`, or with " +
    "`error` naming why it failed. Only a crafted URL answers 400.",
  security: [],
  request: { params: ProviderParam, query: OAuthCallbackQuery },
  responses: {
    302: { description: "Redirect to CLIENT_URL/auth/callback with `code` (one-time) or `error`" },
    // A provider never sends these; a crafted URL (control characters, oversized values) is refused.
    ...problems(400),
  },
};

export class OAuthCallback extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    const location = await finishOAuth({
      ctx: platformCtx(c),
      input: { provider: params.provider, query, cookieState: getCookie(c, STATE_COOKIE) },
    });
    deleteCookie(c, STATE_COOKIE, { path: `/api/auth/oauth/${params.provider}` });
    return c.redirect(location, 302);
  }
}
