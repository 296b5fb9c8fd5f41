import { EmailLinkForm } from "./EmailLinkForm";

/** `/forgot-password`: sends the reset link (the API's reset page sets the password, then back to /login). */
export function Forgot() {
  return <EmailLinkForm kind="forgot" path="/api/auth/forgot-password" />;
}
