import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { dateTime } from "../../format";
import { useLanguage } from "../../i18n";
import type { Poll } from "../../screens/musyawarah/types";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { DataTable } from "../ui";
import { px } from "./text";

const TABS = ["all", "draft", "aktif", "ditutup"] as const;
type Tab = (typeof TABS)[number];

/** `/pengurus/musyawarah?status=…`: every poll, drafts too (staff see them), paged. */
export function PollList() {
  useLanguage();
  const { query } = useLocation();
  const tab: Tab = (TABS as readonly string[]).includes(query.status ?? "") ? (query.status as Tab) : "all";
  const polls = usePaged(
    (cursor) =>
      api.get<Page<Poll>>("/api/musyawarah", {
        query: { status: tab === "all" ? undefined : tab, limit: 20, cursor },
      }),
    [tab],
  );
  return (
    <section aria-labelledby="polls-title" class="polls">
      <h1 id="polls-title">{px("title")}</h1>
      <p>
        <a class="button primary" href="/pengurus/musyawarah/baru">
          {px("create")}
        </a>
      </p>
      <nav aria-label={px("tabs")} class="polls-tabs">
        <ul>
          {TABS.map((k) => (
            <li key={k}>
              <a
                href={k === "all" ? "/pengurus/musyawarah" : `/pengurus/musyawarah?status=${k}`}
                aria-current={k === tab ? "page" : undefined}
              >
                {px(k)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <ShowPaged paged={polls} empty={px("empty")} lines={5}>
        {(items) => (
          <DataTable
            caption={px("title")}
            rows={items}
            rowKey={(p) => p.id}
            columns={[
              { label: px("colTitle"), cell: (p) => <a href={`/pengurus/musyawarah/${p.id}`}>{p.title}</a> },
              {
                label: px("colSchedule"),
                cell: (p) => px("schedule", { from: dateTime(p.startsAt), to: dateTime(p.endsAt) }),
              },
              {
                label: px("colStatus"),
                cell: (p) => <span class={`badge polls-${p.status}`}>{px(p.status)}</span>,
              },
              { label: px("colTurnout"), numeric: true, cell: (p) => String(p.turnout.ballots) },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}
