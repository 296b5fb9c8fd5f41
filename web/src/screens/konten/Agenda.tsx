import { api, saveBlob } from "../../api/client";
import { dateTime } from "../../format";
import { t, useLanguage } from "../../i18n";
import { type Page, ShowPaged, usePaged } from "../../ui/states";

export interface AgendaItem {
  id: string;
  title: string;
  description: string;
  place: string;
  start: string;
  end: string;
}

/**
 * `/agenda`: the events that have not ended yet, soonest first (the API's default). Each can be put in the
 * phone's own calendar as an .ics file, made here: no route, no account elsewhere. (The API has no RSVP.)
 */
export function AgendaList() {
  useLanguage();
  const list = usePaged((cursor) =>
    api.get<Page<AgendaItem>>("/api/agenda", { query: { limit: 20, cursor } }),
  );
  return (
    <section aria-labelledby="agenda-title">
      <h1 id="agenda-title">{t("nav.agenda")}</h1>
      <ShowPaged paged={list} empty={t("konten.agendaNone")} lines={4}>
        {(items) => (
          <ul class="konten-list">
            {items.map((a) => (
              <li key={a.id} class="card agenda-item">
                <h2>{a.title}</h2>
                <p>
                  <strong>{span(a)}</strong>
                </p>
                <p>{t("konten.place", { place: a.place })}</p>
                {a.description && <p class="muted">{a.description}</p>}
                <button
                  type="button"
                  onClick={() =>
                    saveBlob(new Blob([icsOf(a)], { type: "text/calendar" }), `agenda-${a.id}.ics`)
                  }
                  aria-label={t("konten.addToCalendarOf", { title: a.title })}
                >
                  {t("konten.addToCalendar")}
                </button>
              </li>
            ))}
          </ul>
        )}
      </ShowPaged>
    </section>
  );
}

/** "3 Desember 2026, 19.00 – 21.00 WIB" on one day; both full moments when it runs past midnight. */
function span(a: AgendaItem): string {
  const start = dateTime(a.start);
  const end = dateTime(a.end);
  const [startDay] = start.split(", ");
  const [endDay, endTime] = end.split(", ");
  return startDay === endDay && endTime ? `${start.replace(/ WIB$/, "")} – ${endTime}` : `${start} – ${end}`;
}

const stamp = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
/** RFC 5545 text: backslash, semicolon, comma and newline escaped. */
const text = (s: string) => s.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, "\\n");

/** One event as an iCalendar file (RFC 5545), times in UTC. */
export function icsOf(a: AgendaItem, now = new Date()): string {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Warga//Agenda//ID",
    "BEGIN:VEVENT",
    `UID:${a.id}@warga`,
    `DTSTAMP:${stamp(now.toISOString())}`,
    `DTSTART:${stamp(a.start)}`,
    `DTEND:${stamp(a.end)}`,
    `SUMMARY:${text(a.title)}`,
    `LOCATION:${text(a.place)}`,
    ...(a.description ? [`DESCRIPTION:${text(a.description)}`] : []),
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}
