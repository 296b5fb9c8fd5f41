import { EmailLinkForm } from "./EmailLinkForm";

/** `/forgot-password`: sends the reset link, which opens the app's `/reset-password` (Reset.tsx). */
export function Forgot() {
  return <EmailLinkForm kind="forgot" path="/api/auth/forgot-password" />;
}
