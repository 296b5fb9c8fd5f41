import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { dateTime, jakartaDay } from "../../format";
import { t, useLanguage } from "../../i18n";
import { stageKey, stageOf, type Visitor } from "../../screens/tamu/visitor";
import { useSession } from "../../session";
import { FormError, TextArea, useSubmit } from "../../ui/forms";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { dutiesOf } from "../duties";
import { Confirm, DataTable } from "../ui";
import { gx } from "./text";

const TABS = ["menunggu", "hari-ini", "semua"] as const;
type Tab = (typeof TABS)[number];
const TAB_LABEL = { menunggu: "waiting", "hari-ini": "today", semua: "past" } as const;
const EMPTY = { menunggu: "emptyWaiting", "hari-ini": "emptyToday", semua: "emptyAll" } as const;

/** `/pengurus/tamu?tab=…`: one list at a time (the tab stays in the address), paged. */
export function GuestLists() {
  useLanguage();
  const session = useSession();
  const { query } = useLocation();
  const tab: Tab = (TABS as readonly string[]).includes(query.tab ?? "") ? (query.tab as Tab) : "menunggu";
  const [done, setDone] = useState<string | null>(null);
  const today = jakartaDay(new Date());
  const visits = usePaged(
    (cursor) =>
      api.get<Page<Visitor>>("/api/visitor", {
        query: {
          status: tab === "menunggu" ? "menunggu" : undefined,
          from: tab === "hari-ini" ? today : undefined,
          to: tab === "hari-ini" ? today : undefined,
          limit: 20,
          cursor,
        },
      }),
    [tab],
  );
  const admin = session.status === "signedIn" && dutiesOf(session.user).includes("admin");
  const reload = visits.state === "ready" ? visits.reload : () => undefined;
  return (
    <section aria-labelledby="guests-title" class="guests">
      <h1 id="guests-title">{gx("title")}</h1>
      {admin && (
        <p>
          <a href="/pengurus/tamu/perangkat">{gx("devicesLink")}</a>
        </p>
      )}
      <nav aria-label={gx("tabs")} class="guests-tabs">
        <ul>
          {TABS.map((k) => (
            <li key={k}>
              <a href={`/pengurus/tamu?tab=${k}`} aria-current={k === tab ? "page" : undefined}>
                {gx(TAB_LABEL[k])}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {done && (
        <p class="card" role="status">
          {done}
        </p>
      )}
      <ShowPaged paged={visits} empty={gx(EMPTY[tab])} lines={6}>
        {(items) => (
          <DataTable
            caption={gx(TAB_LABEL[tab])}
            rows={items}
            rowKey={(v) => v.id}
            columns={[
              { label: gx("guest"), cell: (v) => v.guestName },
              { label: gx("host"), cell: (v) => v.residentName ?? "—" },
              { label: gx("purpose"), cell: (v) => v.purpose },
              { label: gx("visitAt"), cell: (v) => dateTime(v.visitAt) },
              { label: gx("plate"), cell: (v) => v.vehiclePlate ?? "—" },
              {
                label: gx("status"),
                cell: (v) => {
                  const stage = stageOf(v);
                  return <span class={`badge tamu-${stage}`}>{t(stageKey(stage))}</span>;
                },
              },
              ...(tab === "menunggu"
                ? [
                    {
                      label: gx("decide"),
                      cell: (v: Visitor) => (
                        <Decide
                          visitor={v}
                          done={(message) => {
                            setDone(message);
                            reload();
                          }}
                        />
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}

/** Approve (the pass is issued with the API's default window) or reject with an optional note. */
function Decide({ visitor, done }: { visitor: Visitor; done: (message: string) => void }) {
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState("");
  const approve = useSubmit(async () => {
    await api.put(`/api/visitor/${visitor.id}`, { status: "disetujui" }, null);
    done(gx("approved", { name: visitor.guestName }));
  });
  const reject = useSubmit(async () => {
    await api.put(
      `/api/visitor/${visitor.id}`,
      { status: "ditolak", ...(note.trim() ? { note: note.trim() } : {}) },
      null,
    );
    setAsking(false);
    done(gx("rejected", { name: visitor.guestName }));
  });
  return (
    <div>
      <div class="actions guests-decide">
        <button
          type="button"
          class="primary"
          disabled={approve.busy}
          aria-label={`${gx("approve")}: ${visitor.guestName}`}
          onClick={() => approve.submit()}
        >
          {gx("approve")}
        </button>
        <button
          type="button"
          class="danger"
          aria-label={`${gx("reject")}: ${visitor.guestName}`}
          onClick={() => setAsking(true)}
        >
          {gx("reject")}
        </button>
      </div>
      <FormError error={approve.error} />
      <Confirm
        open={asking}
        title={gx("rejectTitle", { name: visitor.guestName })}
        confirmLabel={gx("reject")}
        danger
        busy={reject.busy}
        error={reject.error}
        onCancel={() => setAsking(false)}
        onConfirm={() => reject.submit()}
      >
        <TextArea label={gx("rejectNote")} name="note" value={note} onInput={setNote} maxLength={500} />
      </Confirm>
    </div>
  );
}
