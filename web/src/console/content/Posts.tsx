import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date } from "../../format";
import { Select } from "../../ui/forms";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { DataTable } from "../ui";
import { type ContentKey, tx } from "./text";
import type { Post, PostKind } from "./types";

/** `/pengurus/konten` (announcements) and `/pengurus/konten/berita`: drafts and published, newest first. */
export function Posts({ kind }: { kind: PostKind }) {
  const [status, setStatus] = useState("");
  const list = usePaged(
    (cursor) =>
      api.get<Page<Post>>(`/api/${kind}`, { query: { status: status || undefined, cursor, limit: 20 } }),
    [kind, status],
  );
  const announcement = kind === "pengumuman";
  return (
    <section aria-labelledby="konten-posts-title">
      <h1 id="konten-posts-title">{announcement ? tx("pengumumanTitle") : tx("beritaTitle")}</h1>
      <p>
        <a class="button" href={`/pengurus/konten/${kind}/baru`}>
          {announcement ? tx("newPengumuman") : tx("newBerita")}
        </a>
      </p>
      <div class="filters">
        <Select
          label={tx("statusLabel")}
          name="status"
          value={status}
          onInput={setStatus}
          options={[
            { value: "", label: tx("allStatuses") },
            { value: "draft", label: tx("status.draft") },
            { value: "terbit", label: tx("status.terbit") },
          ]}
        />
      </div>
      <ShowPaged paged={list} empty={tx("noPosts")} lines={5}>
        {(items) => (
          <DataTable
            caption={tx("listCaption")}
            rowKey={(p) => p.id}
            rows={items}
            columns={[
              {
                label: tx("titleLabel"),
                cell: (p) => (
                  <span>
                    <a href={`/pengurus/konten/${kind}/${p.id}`}>{p.title}</a>
                    {p.urgent && (
                      <>
                        {" "}
                        <span class="badge badge-urgent">PENTING</span>
                      </>
                    )}
                  </span>
                ),
              },
              { label: tx("statusLabel"), cell: (p) => tx(`status.${p.status}` as ContentKey) },
              {
                label: tx("updated"),
                cell: (p) =>
                  p.publishedAt ? tx("publishedAt", { date: date(p.publishedAt) }) : date(p.updatedAt),
              },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}
