import { Route, Router, useLocation } from "preact-iso";
import { useLanguage } from "../../i18n";
import { Applications } from "./Applications";
import { Audit } from "./Audit";
import "./committee.css";
import { Invitations } from "./Invitations";
import { Invite } from "./Invite";
import { MemberDetail } from "./Member";
import { Members } from "./Members";
import { tx } from "./text";

const BASE = "/pengurus/tim";

/** The pages of the section, one tap apart (a row of links above each screen). */
function Tabs() {
  const { path } = useLocation();
  const tabs = [
    { href: BASE, label: tx("tabMembers") },
    { href: `${BASE}/undang`, label: tx("tabInvite") },
    { href: `${BASE}/undangan`, label: tx("tabInvitations") },
    { href: `${BASE}/pendaftaran`, label: tx("tabApplications") },
    { href: `${BASE}/audit`, label: tx("tabAudit") },
  ];
  const here = (href: string) =>
    href === BASE
      ? path === BASE || path === `${BASE}/` || path.startsWith(`${BASE}/anggota/`)
      : path === href || path.startsWith(`${href}/`);
  return (
    <nav class="tim-tabs" aria-label={tx("tabs")}>
      <ul>
        {tabs.map((t) => (
          <li key={t.href}>
            <a href={t.href} aria-current={here(t.href) ? "page" : undefined}>
              {t.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * `/pengurus/tim`: the committee (admin): members and their duties, invitations, applications to join
 * and the audit trail (issue 46 item 8).
 */
export function Committee() {
  useLanguage();
  return (
    <div class="tim">
      <Tabs />
      <Router>
        <Route path="/" component={Members} />
        <Route path="/anggota/:userId" component={MemberDetail} />
        <Route path="/undang" component={Invite} />
        <Route path="/undangan" component={Invitations} />
        <Route path="/pendaftaran" component={Applications} />
        <Route path="/audit" component={Audit} />
      </Router>
    </div>
  );
}
