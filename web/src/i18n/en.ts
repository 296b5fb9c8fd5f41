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
  "pwa.offlineSince": "You are offline — data last seen {time}",
  "pwa.push": "Notifications on this device",
  "pwa.pushHint":
    "Announcements, news, letters and guests appear on this device even when the app is closed.",
  "pwa.pushBlocked":
    "Notifications are blocked in this browser. Allow them in the site settings, then try again.",
  "pwa.pushUnsupported": "This browser does not support notifications.",

  // auth: strings of the later sign-in screens (web/src/screens/auth)
};
