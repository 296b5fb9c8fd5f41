import type { Messages } from "./id";

/** English: the same keys as id.ts (the type checks that none is missing). */
export const en: Messages = {
  "app.name": "Warga",
  "app.skip": "Skip to content",
  "app.language": "Bahasa Indonesia",
  "app.languageLabel": "Switch language to Bahasa Indonesia",
  "app.offline": "You are offline",
  "nav.home": "Home",
  "nav.signOut": "Sign out",
  "nav.main": "Main menu",
  "nav.menu": "More",
  "nav.iuran": "Dues",
  "nav.surat": "Letters",
  "nav.tamu": "Guests",
  "nav.satpam": "Gate",
  "nav.musyawarah": "Polls",
  "nav.aspirasi": "Feedback",
  "nav.berita": "News",
  "nav.pengumuman": "Announcements",
  "nav.agenda": "Events",
  "nav.galeri": "Gallery",
  "nav.pasar": "Market",
  "nav.asisten": "Assistant",
  "nav.profil": "Profile",
  "nav.switch": "Switch community",
  "common.loading": "Loading…",
  "common.retry": "Try again",
  "common.error": "Something went wrong. Try again in a moment.",
  "common.network": "Cannot reach the server. Check your connection, then try again.",
  "common.required": "Required.",
  "common.sending": "Sending…",
  "common.more": "Load more",
  "common.back": "Back to home",
  "signIn.title": "Sign in to Warga",
  "signIn.email": "Email",
  "signIn.password": "Password",
  "signIn.submit": "Sign in",
  "signIn.magic": "Sign in with a link by email",
  "signIn.forgot": "Forgot your password?",
  "signIn.google": "Sign in with Google",
  "magic.title": "Sign in with a link",
  "magic.intro": "We email you a sign-in link. It works for a short time and only once.",
  "magic.submit": "Send the link",
  "magic.sent": "If that email is registered, a sign-in link is on its way. Check your email.",
  "magic.landing": "Signing you in…",
  "magic.failed": "This link no longer works. Ask for a new one.",
  "magic.again": "Ask for a new link",
  "forgot.title": "Forgot password",
  "forgot.intro": "Enter your email; we send you a link to choose a new password.",
  "forgot.submit": "Send the link",
  "forgot.sent": "If that email is registered, a link to choose a new password is on its way.",
  "forgot.back": "Back to sign in",
  "join.title": "Join a community",
  "join.loading": "Checking the invitation…",
  "join.newAccount": "Choose a password for your new account.",
  "join.password": "New password (at least 8 characters)",
  "join.submit": "Join",
  "join.confirm": "You are signed in as {name}. Accept this invitation?",
  "join.intro": "Accept the invitation to join this community?",
  "join.confirmSubmit": "Yes, join",
  "join.signInFirst": "This invitation is for an existing account. Sign in first, then open this link again.",
  "join.missing": "The invitation link is incomplete.",
  "join.done": "Welcome to {community}.",
  "join.duties": "Your duties: {duties}",
  "choose.title": "Choose a community",
  "choose.intro": "Your account belongs to several communities. Choose the one to open.",
  "choose.current": "(open now)",
  "home.title": "Home",
  "home.greeting": "Hello, {name}",
  "home.needs": "What needs you",
  "home.bills": "Unpaid dues",
  "home.billsNone": "No unpaid dues.",
  "home.billDue": "{period}: {amount}",
  "home.billsTotal": "Total: {amount}",
  "home.letters": "Letters",
  "home.lettersNone": "No letters in progress.",
  "home.polls": "Open polls",
  "home.pollsNone": "No poll is open.",
  "home.pollCloses": "closes {date}",
  "home.news": "Latest announcements",
  "home.newsNone": "No announcements yet.",
  "home.notResident": "The resident screens are for people who live in this community. Staff screens follow.",
  "letter.diajukan": "submitted",
  "letter.diproses": "in progress",
  "letter.perlu_perbaikan": "needs changes",
  "letter.selesai": "done, ready to download",
  "letter.ditolak": "rejected",
  "letter.dibatalkan": "cancelled",
  "notFound.title": "Page not found",
  "notFound.body": "This address is not part of the Warga app.",
  "signOut.done": "You are signed out.",

  // iuran: strings of web/src/screens/iuran

  // surat: strings of web/src/screens/surat

  // tamu: strings of web/src/screens/tamu

  // satpam: strings of web/src/screens/satpam

  // musyawarah: strings of web/src/screens/musyawarah

  // aspirasi: strings of web/src/screens/aspirasi

  // konten: strings of web/src/screens/konten

  // pasar: strings of web/src/screens/pasar

  // asisten: strings of web/src/screens/asisten

  // profil: strings of web/src/screens/profil

  // pwa: strings of the installed app (web/src/pwa)

  // auth: strings of the later sign-in screens (web/src/screens/auth)
  "auth.duty.admin": "head/admin",
  "auth.duty.sekretaris": "secretary",
  "auth.duty.bendahara": "treasurer",
  "auth.duty.satpam": "security guard (satpam)",
  "auth.and": " and ",
  "auth.invited": "Hello {name}, you are invited to join:",
  "auth.community": "Community",
  "auth.asWhat": "As",
  "auth.asResident": "resident",
  "auth.newPasswordIntro": "Choose a new password for your account.",
  "auth.signInName": "You sign in with:",
  "auth.resetTitle": "Choose a new password",
  "auth.resetIntro":
    "Type your new password twice. Every device signed in with this account will then be signed out.",
  "auth.resetMissing": "This link is incomplete. Ask for a new one.",
  "auth.newPassword": "New password (at least 8 characters)",
  "auth.newPasswordAgain": "New password again",
  "auth.passwordMismatch": "The two passwords are not the same.",
  "auth.resetSubmit": "Save password",
  "auth.resetAgain": "Ask for a new link",
  "auth.resetDone": "Your password has been changed. Sign in with your new password.",
  "auth.oauthTitle": "Sign in with Google",
  "auth.oauth.access_denied": "Signing in with Google was cancelled.",
  "auth.oauth.account_not_found":
    "This Google email is not registered with Warga. Ask your RT's staff to add you, or sign in with email and password.",
  "auth.oauth.email_not_verified": "This Google account's email is not verified.",
  "auth.oauth.failed": "Signing in with Google did not work. Try again, or sign in with email and password.",
  "auth.daftar.title": "Apply as a resident",
  "auth.daftar.community": "Community: {slug}",
  "auth.daftar.intro": "Fill in your details. The RT's staff check them before your account is made.",
  "auth.daftar.fullName": "Full name",
  "auth.daftar.whatsapp": "WhatsApp number",
  "auth.daftar.email": "Email (optional)",
  "auth.daftar.block": "Block",
  "auth.daftar.houseNumber": "House number",
  "auth.daftar.kkNumber": "Family card (KK) number, 16 digits (optional)",
  "auth.daftar.note": "A note for the staff (optional)",
  "auth.daftar.submit": "Send application",
  "auth.daftar.sent": "We have received your application.",
  "auth.daftar.next":
    "The RT's staff will check it. If approved, you get a link by email or WhatsApp to choose a password, and can then sign in.",
  "auth.daftar.toSignIn": "Go to sign-in",
};
