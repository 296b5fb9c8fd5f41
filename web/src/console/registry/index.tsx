import { Route, Router, useLocation } from "preact-iso";
import { useLanguage } from "../../i18n";
import { CardDetail } from "./CardDetail";
import { CardForm } from "./CardForm";
import { Corrections } from "./Corrections";
import { Exchange } from "./Exchange";
import { CardList } from "./List";
import { MemberForm } from "./MemberForm";
import { MutasiList } from "./Mutasi";
import { PlateDuplicates } from "./PlateDuplicates";
import { Stats } from "./Stats";
import { tx } from "./text";
import { HOME } from "./types";
import { Units } from "./Units";
import "./registry.css";

const PARTS = [
  { path: "", label: () => tx("navCards") },
  { path: "/unit", label: () => tx("navUnits") },
  { path: "/koreksi", label: () => tx("navCorrections") },
  { path: "/plat-ganda", label: () => tx("navDuplicates") },
  { path: "/mutasi", label: () => tx("navMutasi") },
  { path: "/impor", label: () => tx("navExchange") },
  { path: "/statistik", label: () => tx("navStats") },
];

/**
 * `/pengurus/warga/*`: the registry for the secretary and admin (issue 46 item 2): family cards (search,
 * detail, add and edit with If-Match, members, vehicles, life events), the houses on a plan, residents'
 * corrections, vehicles registered under two spellings of a plate, import with its dry run and export,
 * statistics.
 */
export function Registry() {
  useLanguage();
  const { path } = useLocation();
  const rest = path.slice(HOME.length);
  const current = (p: string) =>
    p === ""
      ? rest === "" || rest === "/" || rest === "/baru" || rest.startsWith("/kk/")
      : rest.startsWith(p);
  return (
    <div class="reg">
      <nav class="reg-nav" aria-label={tx("nav")}>
        <ul>
          {PARTS.map((p) => (
            <li key={p.path}>
              <a href={`${HOME}${p.path}`} aria-current={current(p.path) ? "page" : undefined}>
                {p.label()}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <Router>
        <Route path="/" component={CardList} />
        <Route path="/baru" component={CardForm} />
        <Route path="/kk/:id" component={CardDetail} />
        <Route path="/kk/:id/ubah" component={CardForm} />
        <Route path="/kk/:id/anggota/baru" component={MemberForm} />
        <Route path="/kk/:id/kelahiran" component={MemberForm} />
        <Route path="/kk/:id/anggota/:memberId" component={MemberForm} />
        <Route path="/unit" component={Units} />
        <Route path="/koreksi" component={Corrections} />
        <Route path="/plat-ganda" component={PlateDuplicates} />
        <Route path="/mutasi" component={MutasiList} />
        <Route path="/impor" component={Exchange} />
        <Route path="/statistik" component={Stats} />
      </Router>
    </div>
  );
}
