import { type AccessTable, platform, pub, R_S, user } from "../../helpers/access";

/**
 * Who may call each route of the identity and data-export modules, and why (reading rules:
 * test/helpers/access.ts).
 */
export const ACCESS: AccessTable = {
  // Identity (spec Authentication; issue 3). Sign-in, refresh, logout and resets are for callers
  // without a valid access token by nature.
  "POST /api/auth/login": pub,
  "POST /api/auth/refresh": pub,
  "POST /api/auth/logout": pub,
  // The web app's "sign out everywhere" (issue 43): a person ends every other session of their account.
  "POST /api/auth/logout/others": user,
  "POST /api/auth/switch-tenant": user,
  "POST /api/auth/magic-link": pub,
  "POST /api/auth/magic-link/verify": pub,
  "POST /api/auth/forgot-password": pub,
  "POST /api/auth/reset-password": pub,
  "POST /api/auth/join/accept": pub,
  // Issue 45: signing in without email, by a code to a proven WhatsApp number or one an officer handed over.
  "POST /api/auth/otp/request": pub,
  "POST /api/auth/otp/verify": pub,
  "POST /api/auth/code/redeem": pub,
  // Issue 43: the web app's landing of an invitation or join link, and its provider buttons.
  "POST /api/auth/join/preview": pub,
  "GET /api/auth/providers": pub,
  "GET /api/auth/oauth/:provider": pub,
  "GET /api/auth/oauth/:provider/callback": pub,
  "POST /api/auth/oauth/exchange": pub,
  "GET /api/user/me": user,
  // Issue 45: one's own password, set by a code-only member or changed with the current one.
  "POST /api/user/password": user,

  // Spec: PUT /api/user/profile, R ("Resident profile"). Staff are residents of their RT too: they
  // complete the same profile (name, WhatsApp, house), so every member may (settled in issue 11).
  "PUT /api/user/profile": { who: R_S },
  // Issue 44 (P1): a person proves their own number or email with a one-time code; only an operator
  // takes a proven number away from the account that holds it (a disputed number, audited).
  "POST /api/user/contacts/verify/request": user,
  "POST /api/user/contacts/verify": user,
  "POST /api/platform/contacts/whatsapp/release": platform,

  // Content and notifications (issue 16): everyone in the tenant reads, the secretariat writes; each
  // user manages their own devices and preferences.
  "POST /api/user/push-tokens": { who: R_S },
  "DELETE /api/user/push-tokens/:token": { who: R_S },
  // Issue 43: the web app's Web Push key, public and the same for everyone signed in.
  "GET /api/user/push-tokens/vapid-key": user,
  "GET /api/user/notification-preferences": user,
  "PUT /api/user/notification-preferences": user,

  // Issue 19: a person's own data, across all their memberships (any signed-in account).
  "GET /api/user/data-export": user,
};
