import { type Access, ROLES, tenantAccess } from "../../core/http/access";
import { CRON } from "../../core/jobs";
import { defineModule } from "../../core/module";
import { IDENTITY_ERROR_CODES } from "./errors";
import { endMoveOutGrace } from "./moveOut";
import { AcceptJoin } from "./routes/acceptJoin";
import { ExchangeOAuthCode } from "./routes/exchangeOAuthCode";
import { ForgotPassword } from "./routes/forgotPassword";
import { GetMe } from "./routes/getMe";
import { GetNotificationPreferences } from "./routes/getNotificationPreferences";
import { GetVapidKey } from "./routes/getVapidKey";
import { ListAuthProviders } from "./routes/listAuthProviders";
import { Login } from "./routes/login";
import { Logout } from "./routes/logout";
import { LogoutOthers } from "./routes/logoutOthers";
import { OAuthCallback } from "./routes/oauthCallback";
import { PreviewInvitation } from "./routes/previewInvitation";
import { PutNotificationPreferences } from "./routes/putNotificationPreferences";
import { RedeemSignInCode } from "./routes/redeemSignInCode";
import { Refresh } from "./routes/refresh";
import { RegisterPushToken } from "./routes/registerPushToken";
import { ReleaseWhatsapp } from "./routes/releaseWhatsapp";
import { RequestContactCode } from "./routes/requestContactCode";
import { RequestMagicLink } from "./routes/requestMagicLink";
import { RequestWhatsappCode } from "./routes/requestWhatsappCode";
import { ResetPassword } from "./routes/resetPassword";
import { SetPassword } from "./routes/setPassword";
import { StartOAuth } from "./routes/startOAuth";
import { SwitchTenant } from "./routes/switchTenant";
import { UnregisterPushToken } from "./routes/unregisterPushToken";
import { UpdateProfile } from "./routes/updateProfile";
import { VerifyContact } from "./routes/verifyContact";
import { VerifyMagicLink } from "./routes/verifyMagicLink";
import { VerifyWhatsappCode } from "./routes/verifyWhatsappCode";

const pub = { scope: "public" } as const satisfies Access;
const user = { scope: "user" } as const satisfies Access;
const platform = { scope: "platform" } as const satisfies Access;

export const identityModule = defineModule({
  name: "identity",
  errorCodes: IDENTITY_ERROR_CODES,
  // Sign-in, profile and switching act on the session itself: a logged-out token must stop at once.
  liveSession: "always",
  // Sign-in and the profile stay usable when the community's subscription is `nonaktif` (issue 15).
  writesWhenInactive: true,
  routes: [
    { method: "post", path: "/api/auth/login", endpoint: Login, access: pub },
    { method: "post", path: "/api/auth/refresh", endpoint: Refresh, access: pub },
    { method: "post", path: "/api/auth/logout", endpoint: Logout, access: pub },
    { method: "post", path: "/api/auth/logout/others", endpoint: LogoutOthers, access: user },
    { method: "post", path: "/api/auth/switch-tenant", endpoint: SwitchTenant, access: user },
    { method: "post", path: "/api/auth/magic-link", endpoint: RequestMagicLink, access: pub },
    { method: "post", path: "/api/auth/magic-link/verify", endpoint: VerifyMagicLink, access: pub },
    { method: "post", path: "/api/auth/otp/request", endpoint: RequestWhatsappCode, access: pub },
    { method: "post", path: "/api/auth/otp/verify", endpoint: VerifyWhatsappCode, access: pub },
    { method: "post", path: "/api/auth/code/redeem", endpoint: RedeemSignInCode, access: pub },
    { method: "post", path: "/api/auth/forgot-password", endpoint: ForgotPassword, access: pub },
    { method: "post", path: "/api/auth/reset-password", endpoint: ResetPassword, access: pub },
    { method: "post", path: "/api/auth/join/accept", endpoint: AcceptJoin, access: pub },
    { method: "post", path: "/api/auth/join/preview", endpoint: PreviewInvitation, access: pub },
    { method: "get", path: "/api/auth/providers", endpoint: ListAuthProviders, access: pub },
    { method: "get", path: "/api/auth/oauth/:provider", endpoint: StartOAuth, access: pub },
    {
      method: "get",
      path: "/api/auth/oauth/:provider/callback",
      endpoint: OAuthCallback,
      access: pub,
      secret: { query: ["code", "state"] },
    },
    { method: "post", path: "/api/auth/oauth/exchange", endpoint: ExchangeOAuthCode, access: pub },
    { method: "get", path: "/api/user/me", endpoint: GetMe, access: user },
    // Issue 45: a member who signs in by a code sets a password of their own; others change theirs.
    { method: "post", path: "/api/user/password", endpoint: SetPassword, access: user },
    {
      method: "put",
      path: "/api/user/profile",
      endpoint: UpdateProfile,
      access: tenantAccess(ROLES.MEMBER),
    },
    {
      method: "post",
      path: "/api/user/contacts/verify/request",
      endpoint: RequestContactCode,
      access: user,
    },
    { method: "post", path: "/api/user/contacts/verify", endpoint: VerifyContact, access: user },
    {
      method: "post",
      path: "/api/platform/contacts/whatsapp/release",
      endpoint: ReleaseWhatsapp,
      access: platform,
    },
    {
      method: "post",
      path: "/api/user/push-tokens",
      endpoint: RegisterPushToken,
      access: tenantAccess(ROLES.MEMBER),
    },
    { method: "get", path: "/api/user/push-tokens/vapid-key", endpoint: GetVapidKey, access: user },
    {
      method: "delete",
      path: "/api/user/push-tokens/:token",
      endpoint: UnregisterPushToken,
      access: tenantAccess(ROLES.MEMBER),
      secret: { params: ["token"] },
    },
    {
      method: "get",
      path: "/api/user/notification-preferences",
      endpoint: GetNotificationPreferences,
      access: user,
    },
    {
      method: "put",
      path: "/api/user/notification-preferences",
      endpoint: PutNotificationPreferences,
      access: user,
    },
  ],
  jobs: [
    // A moved-out member's grace period (issue 45) runs out: the membership is deleted.
    { name: "identity.move-out-grace", cron: CRON.HOURLY, run: (ctx, at) => endMoveOutGrace(ctx, at) },
  ],
});
