import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import type { RouteEnv } from "../../core/env";
import { Forbidden, Invalid, Unauthorized } from "../../core/errors";
import { REFRESH_TOKEN_TTL_DAYS } from "./sessions";

/**
 * The first-party web app's sessions (ADR 0041). Its requests carry `X-Warga-Client: web`; for them the
 * refresh token is never in a body the page could read: sign-in answers set it as an HttpOnly, Secure,
 * SameSite=Strict cookie whose Path is the refresh route (and, a second copy, the sign-out route), and
 * refresh and sign-out read it from there. Every other client keeps the bearer contract unchanged: the
 * token in the JSON body both ways, and a cookie sent without the header is ignored.
 *
 * CSRF: a cookie-carrying request must have the custom header (a cross-site form or a simple request
 * cannot set one, and CORS does not allow it from any origin) and an `Origin` of this deployment; the
 * cookie is SameSite=Strict besides.
 */
export const WEB_CLIENT_HEADER = "X-Warga-Client";
export const REFRESH_COOKIE = "warga_refresh";
export const REFRESH_COOKIE_PATHS = ["/api/auth/refresh", "/api/auth/logout"] as const;

/** The request header, documented on each route that honours it. */
export const WebClientHeaders = z.object({
  // Not held to "web" here: any other value, like none, is simply an API client (the bearer contract).
  "x-warga-client": z
    .string()
    .max(64)
    .nullish()
    .describe(
      "`web` for the first-party web app (same origin only): the refresh token travels as an HttpOnly cookie " +
        `(\`${REFRESH_COOKIE}\`, Path ${REFRESH_COOKIE_PATHS.join(" and ")}) instead of the JSON body.`,
    ),
});

/** Whether this is the web app's request; a web request from another origin is refused. */
export function isWebClient(c: Context<RouteEnv>): boolean {
  if (c.req.header(WEB_CLIENT_HEADER) !== "web") {
    return false;
  }
  const origin = c.req.header("Origin");
  const own = new Set([new URL(c.req.url).origin, new URL(c.get("config").APP_URL).origin]);
  if (!origin || !own.has(origin)) {
    throw new Forbidden(
      "origin_refused",
      "Cookie sign-in is only for the web app on this site's own origin.",
    );
  }
  return true;
}

function writeCookies(c: Context<RouteEnv>, value: string, maxAge: number): void {
  for (const path of REFRESH_COOKIE_PATHS) {
    setCookie(c, REFRESH_COOKIE, value, { path, httpOnly: true, secure: true, sameSite: "Strict", maxAge });
  }
}

/** The refresh token a refresh or sign-out acts on: the cookie for the web app, the body for others. */
export function presentedRefreshToken(
  c: Context<RouteEnv>,
  web: boolean,
  body: { refreshToken?: string },
): string {
  if (web) {
    const token = getCookie(c, REFRESH_COOKIE);
    if (!token) {
      throw new Unauthorized("invalid_refresh_token", "Not signed in on this browser.");
    }
    return token;
  }
  if (!body.refreshToken) {
    throw new Invalid("invalid_input", "refreshToken is required.", [
      { field: "refreshToken", message: "required" },
    ]);
  }
  return body.refreshToken;
}

/**
 * Answers a new session: for the web app the refresh token goes into the cookie and out of the body.
 * `web` is `isWebClient(c)`, asked before the sign-in so a foreign origin spends no token or attempt.
 */
export function answerSession<T extends { refreshToken: string }>(
  c: Context<RouteEnv>,
  web: boolean,
  result: T,
) {
  if (!web) {
    return c.json(result);
  }
  const { refreshToken, ...rest } = result;
  writeCookies(c, refreshToken, REFRESH_TOKEN_TTL_DAYS * 86_400);
  return c.json(rest);
}

/** Sign-out in the web app: the cookie is cleared whatever the session's state was. */
export function clearRefreshCookie(c: Context<RouteEnv>): void {
  writeCookies(c, "", 0);
}
