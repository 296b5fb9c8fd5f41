import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from "jose";
import { z } from "zod";
import type { ServiceEnv } from "../../../core/context";
import { NotFound, Unavailable } from "../../../core/errors";

/**
 * OpenID Connect providers come from configuration, not code: `OIDC_PROVIDERS` (a JSON var) names each
 * provider's issuer, client id and endpoints, and the secret `OIDC_<NAME>_CLIENT_SECRET` holds its client
 * secret. Adding Microsoft or a government IdP is a config change.
 */
const ProviderConfig = z.object({
  /** Google still issues `accounts.google.com` without the scheme for some clients: allow a list. */
  issuer: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  clientId: z.string().min(1),
  authorizationEndpoint: z.url(),
  tokenEndpoint: z.url(),
  jwksUri: z.url(),
  scopes: z.string().default("openid email profile"),
  /** Signing algorithms accepted for ID tokens; never `none` or HMAC (the client secret is not a key). */
  algorithms: z
    .array(z.enum(["RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"]))
    .default(["RS256"]),
});

export interface OidcProvider extends z.infer<typeof ProviderConfig> {
  name: string;
  clientSecret: string;
}

let cached: { source: string; providers: Map<string, z.infer<typeof ProviderConfig>> } | undefined;

function configured(env: ServiceEnv): Map<string, z.infer<typeof ProviderConfig>> {
  const source = env.OIDC_PROVIDERS ?? "{}";
  if (cached?.source === source) {
    return cached.providers;
  }
  const parsed = z
    .record(z.string().regex(/^[a-z0-9-]{1,32}$/), ProviderConfig)
    .safeParse(JSON.parse(source));
  if (!parsed.success) {
    throw new Error(`Invalid OIDC_PROVIDERS: ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}`);
  }
  const providers = new Map(Object.entries(parsed.data));
  cached = { source, providers };
  return providers;
}

export function secretName(provider: string): string {
  return `OIDC_${provider.toUpperCase().replace(/-/g, "_")}_CLIENT_SECRET`;
}

export function providerFor(env: ServiceEnv, name: string): OidcProvider {
  const config = configured(env).get(name);
  if (!config) {
    throw new NotFound("Identity provider", "provider_not_found");
  }
  const secret = (env as unknown as Record<string, unknown>)[secretName(name)];
  if (typeof secret !== "string" || secret === "") {
    throw new Unavailable("provider_unconfigured", `Sign-in with ${name} is not configured here.`);
  }
  return { ...config, name, clientSecret: secret };
}

/** The providers sign-in works with here: configured, and with their client secret set. */
export function configuredProviders(env: ServiceEnv): string[] {
  return [...configured(env).keys()].filter((name) => {
    const secret = (env as unknown as Record<string, unknown>)[secretName(name)];
    return typeof secret === "string" && secret !== "";
  });
}

/**
 * One key set per JWKS URL per isolate: jose caches the keys and refetches only on an unknown `kid`
 * (after a cooldown), so a provider's key rotation is picked up without fetching on every sign-in.
 */
const keySets = new Map<string, JWTVerifyGetKey>();
export function jwksFor(provider: OidcProvider): JWTVerifyGetKey {
  let keys = keySets.get(provider.jwksUri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(provider.jwksUri), {
      // Resolved at call time, so the outbound call goes through whatever `fetch` the runtime has now.
      [customFetch]: (url, init) => fetch(url, init),
    });
    keySets.set(provider.jwksUri, keys);
  }
  return keys;
}
