import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json } from "../../../core/http/openapi";
import { configuredProviders } from "../oauth/providers";
import { AuthProviders } from "../schemas";

const schema = {
  tags: ["Auth"],
  summary: "List the identity providers a person can sign in with here",
  description:
    "Public: which `GET /api/auth/oauth/:provider` sign-ins work on this deployment, so a client shows " +
    "a provider's button only where it is configured (named in OIDC_PROVIDERS with its client secret " +
    "set). Names only; nothing secret.",
  security: [],
  responses: { 200: json(AuthProviders, "The configured providers") },
};

export class ListAuthProviders extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json({ providers: configuredProviders(platformCtx(c).env).map((name) => ({ name })) });
  }
}
