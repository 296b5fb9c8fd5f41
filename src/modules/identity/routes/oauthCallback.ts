import type { Context } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { finishOAuth, STATE_COOKIE } from "../oauth/flow";
import { OAuthCallbackQuery, ProviderParam } from "../schemas";

export class OAuthCallback extends Endpoint {
  override schema = {
    tags: ["Auth"],
    summary: "Provider callback: verifies state and ID token, then redirects to the client with a code",
    security: [],
    request: { params: ProviderParam, query: OAuthCallbackQuery },
    responses: {
      302: { description: "Redirect to CLIENT_URL/auth/callback with `code` (one-time) or `error`" },
      // A provider never sends these; a crafted URL (control characters, oversized values) is refused.
      ...problems(400),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    const location = await finishOAuth({
      ctx: platformCtx(c),
      input: { provider: params.provider, query, cookieState: getCookie(c, STATE_COOKIE) },
    });
    deleteCookie(c, STATE_COOKIE, { path: `/api/auth/oauth/${params.provider}` });
    return c.redirect(location, 302);
  }
}
