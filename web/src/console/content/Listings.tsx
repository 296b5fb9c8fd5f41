import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date } from "../../format";
import { priceText } from "../../screens/pasar/types";
import { Field, Select, TextArea, useSubmit } from "../../ui/forms";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { Confirm, DataTable } from "../ui";
import { type ContentKey, tx } from "./text";
import type { Listing } from "./types";

const STATUSES = ["aktif", "disembunyikan", "terjual"] as const;

/** `/pengurus/konten/pasar`: the marketplace's listings by status; hide one or show it again, with a reason. */
export function Listings() {
  const [status, setStatus] = useState("aktif");
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const list = usePaged(
    (cursor) =>
      api.get<Page<Listing>>("/api/pasar/listings", {
        query: { status, q: q || undefined, cursor, limit: 20 },
      }),
    [status, q],
  );
  const [moderating, setModerating] = useState<Listing | null>(null);
  const [reason, setReason] = useState("");
  const [done, setDone] = useState(false);
  const hide = moderating?.status === "aktif";
  const moderate = useSubmit(async () => {
    await api.put<Listing>(
      `/api/pasar/listings/${moderating?.id}/moderasi`,
      { status: hide ? "disembunyikan" : "aktif", reason: reason.trim() },
      null,
    );
    return true;
  });
  return (
    <section aria-labelledby="konten-pasar-title">
      <h1 id="konten-pasar-title">{tx("pasarTitle")}</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(text.trim());
        }}
      >
        <Select
          label={tx("status")}
          name="status"
          value={status}
          onInput={setStatus}
          options={STATUSES.map((s) => ({ value: s, label: tx(`pasar.${s}` as ContentKey) }))}
        />
        <Field label={tx("search")} name="q" value={text} onInput={setText} />
        <button type="submit">{tx("apply")}</button>
      </form>
      {done && (
        <p class="notice" role="status">
          {tx("moderated")}
        </p>
      )}
      <ShowPaged paged={list} empty={tx("noListings")} lines={4}>
        {(items) => (
          <DataTable
            caption={tx("pasarCaption")}
            rowKey={(l) => l.id}
            rows={items}
            columns={[
              { label: tx("titleLabel"), cell: (l) => l.title },
              { label: tx("seller"), cell: (l) => l.sellerName ?? "—" },
              { label: tx("price"), cell: (l) => priceText(l.price) },
              { label: tx("when"), cell: (l) => date(l.createdAt) },
              {
                label: tx("action"),
                cell: (l) =>
                  l.status === "terjual" ? (
                    tx("pasar.terjual")
                  ) : (
                    <button
                      type="button"
                      class={l.status === "aktif" ? "danger" : undefined}
                      onClick={() => {
                        setModerating(l);
                        setReason("");
                        setDone(false);
                      }}
                      aria-label={`${l.status === "aktif" ? tx("hide") : tx("show")}: ${l.title}`}
                    >
                      {l.status === "aktif" ? tx("hide") : tx("show")}
                    </button>
                  ),
              },
            ]}
          />
        )}
      </ShowPaged>
      <Confirm
        open={moderating !== null}
        title={tx("moderateTitle", {
          action: hide ? tx("hide") : tx("show"),
          title: moderating?.title ?? "",
        })}
        confirmLabel={hide ? tx("hide") : tx("show")}
        danger={hide}
        busy={moderate.busy}
        error={moderate.error}
        onCancel={() => setModerating(null)}
        onConfirm={async () => {
          if (await moderate.submit()) {
            setModerating(null);
            setDone(true);
            if (list.state === "ready") {
              list.reload();
            }
          }
        }}
      >
        <TextArea
          label={tx("reason")}
          name="reason"
          value={reason}
          onInput={setReason}
          rows={3}
          required
          minLength={3}
          maxLength={500}
        />
      </Confirm>
    </section>
  );
}
