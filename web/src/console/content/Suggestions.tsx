import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date } from "../../format";
import { FormError, useSubmit } from "../../ui/forms";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { tx } from "./text";
import type { Suggestion } from "./types";

function Row({ s }: { s: Suggestion }) {
  const [item, setItem] = useState(s);
  const mark = useSubmit(async () => {
    setItem(await api.put<Suggestion>(`/api/saran/${s.id}/read`, undefined, null).then((a) => a.data));
    return true;
  });
  return (
    <li class="card">
      <p class="prewrap">{item.body}</p>
      <p class="muted">
        {item.anonymous ? tx("anonymous") : (item.senderName ?? "—")} · {date(item.createdAt)} ·{" "}
        {item.readAt ? tx("readAt", { date: date(item.readAt) }) : <strong>{tx("unread")}</strong>}
      </p>
      {!item.readAt && (
        <button type="button" onClick={() => mark.submit()} disabled={mark.busy}>
          {tx("markRead")}
        </button>
      )}
      <FormError error={mark.error} />
    </li>
  );
}

/** `/pengurus/konten/saran`: residents' suggestions (an anonymous one carries no sender), mark read. */
export function Suggestions() {
  const [unread, setUnread] = useState(false);
  const list = usePaged(
    (cursor) =>
      api.get<Page<Suggestion>>("/api/saran", {
        query: { unread: unread ? "true" : undefined, cursor, limit: 20 },
      }),
    [unread],
  );
  return (
    <section aria-labelledby="konten-saran-title">
      <h1 id="konten-saran-title">{tx("saranTitle")}</h1>
      <div class="filters konten-checks">
        <label>
          <input
            type="checkbox"
            name="unread"
            checked={unread}
            onChange={(e) => setUnread((e.currentTarget as HTMLInputElement).checked)}
          />
          {tx("onlyUnread")}
        </label>
      </div>
      <ShowPaged paged={list} empty={tx("noSaran")} lines={4}>
        {(items) => (
          <ul class="konten-saran" aria-label={tx("saranCaption")}>
            {items.map((s) => (
              <Row key={s.id} s={s} />
            ))}
          </ul>
        )}
      </ShowPaged>
    </section>
  );
}
