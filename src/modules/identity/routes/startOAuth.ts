import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { STATE_COOKIE, startOAuth } from "../oauth/flow";
import { OAuthStartQuery, ProviderParam } from "../schemas";

const schema = {
  tags: ["Auth"],
  summary: "Start signing in with an OpenID Connect provider",
  description:
    "Public. Redirects (302) to the provider named in the path (configured providers only), with a " +
    "state cookie valid 10 minutes; `tenant` chooses the community to sign in to. 404 " +
    "`provider_not_found` for a provider that is not configured, 503 `provider_unconfigured` when its " +
    "client secret is missing.",
  security: [],
  request: { params: ProviderParam, query: OAuthStartQuery },
  responses: { 302: { description: "Redirect to the provider" }, ...problems(400, 404, 503) },
};

export class StartOAuth extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    const ctx = platformCtx(c);
    const { location, state } = await startOAuth({
      ctx,
      input: { provider: params.provider, tenant: query.tenant },
    });
    setCookie(c, STATE_COOKIE, state, {
      path: `/api/auth/oauth/${params.provider}`,
      httpOnly: true,
      secure: ctx.config.APP_URL.startsWith("https:"),
      // Lax: the provider's redirect back is a top-level GET navigation, which Lax cookies accompany.
      sameSite: "Lax",
      maxAge: 600,
    });
    return c.redirect(location, 302);
  }
}
