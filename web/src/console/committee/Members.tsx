import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date } from "../../format";
import { Field, Select } from "../../ui/forms";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { DataTable } from "../ui";
import { type CommitteeKey, DUTY_LIST, dutyName, tx } from "./text";
import type { Member } from "./types";

/** A member's duties as small labels, or "no duty". */
export function Duties({ roles }: { roles: string[] }) {
  return roles.length === 0 ? (
    <span class="muted">{tx("noDuty")}</span>
  ) : (
    <span class="tim-duties">
      {roles.map((r) => (
        <span key={r} class="badge">
          {dutyName(r)}
        </span>
      ))}
    </span>
  );
}

export const houseOf = (m: Pick<Member, "unit">): string =>
  m.unit ? `${m.unit.block}-${m.unit.number}` : "—";

/** `/pengurus/tim`: every member with their duties, filtered by duty and text, page by page. */
export function Members() {
  const [role, setRole] = useState("");
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const members = usePaged(
    (cursor) =>
      api.get<Page<Member>>("/api/members", {
        query: { role: role || undefined, q: q || undefined, cursor, limit: 20 },
      }),
    [role, q],
  );
  return (
    <section aria-labelledby="tim-members-title">
      <h1 id="tim-members-title">{tx("membersTitle")}</h1>
      <p>
        <a class="button" href="/pengurus/tim/undang">
          {tx("inviteTitle")}
        </a>
      </p>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(text.trim());
        }}
      >
        <Select
          label={tx("filterRole")}
          name="role"
          value={role}
          onInput={setRole}
          options={[
            { value: "", label: tx("roleAny") },
            ...DUTY_LIST.map((d) => ({ value: d, label: dutyName(d) })),
            { value: "warga", label: tx("roleWarga") },
          ]}
        />
        <Field label={tx("searchLabel")} name="q" value={text} onInput={setText} />
        <button type="submit">{tx("apply")}</button>
      </form>
      <ShowPaged paged={members} empty={tx("noMembers")} lines={6}>
        {(items) => (
          <DataTable
            caption={tx("membersCaption")}
            rowKey={(m) => m.userId}
            rows={items}
            columns={[
              {
                label: tx("name"),
                cell: (m) => <a href={`/pengurus/tim/anggota/${m.userId}`}>{m.name}</a>,
              },
              { label: tx("duties"), cell: (m) => <Duties roles={m.roles} /> },
              { label: tx("contact"), cell: (m) => m.email ?? m.whatsapp ?? "—" },
              { label: tx("house"), cell: (m) => houseOf(m) },
              {
                label: tx("status"),
                cell: (m) => (
                  <span>
                    {tx(`status.${m.status}` as CommitteeKey)}
                    <span class="muted"> · {date(m.joinedAt)}</span>
                  </span>
                ),
              },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}
