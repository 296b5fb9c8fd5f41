import { useEffect, useRef, useState } from "preact/hooks";
import { Route, Router, useLocation, useRoute } from "preact-iso";
import { api, request } from "../../api/client";
import { type Column, Confirm, DataTable } from "../../console/ui";
import { dateTime } from "../../format";
import { useLanguage } from "../../i18n";
import { Field, FormError, Select, Submit, useSubmit } from "../../ui/forms";
import { Empty, type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { type CommunityStatus, cm, communityStatus } from "./text";

/**
 * `/platform/communities`: every community with its type, parent RW, admins, slot, status and
 * subscription, the slot pool; `/baru` creates one with its first admin; `/:id` its features, parent RW,
 * suspension, admin invitations and closing. Routes: src/modules/tenants (and the deep health view for
 * the slot pool).
 */
export function Communities() {
  useLanguage();
  return (
    <Router>
      <Route path="/" component={List} />
      <Route path="/baru" component={Create} />
      <Route path="/:id" component={Detail} />
    </Router>
  );
}

const FLAGS = ["pasar", "tamu", "musyawarah", "surat", "warga"] as const;
type Flag = (typeof FLAGS)[number];
type Flags = Record<Flag, boolean>;
const STATUSES = [
  "active",
  "provisioning",
  "suspended",
  "ditutup",
] as const satisfies readonly CommunityStatus[];
type Status = CommunityStatus;

interface Tenant {
  id: string;
  slug: string;
  name: string;
  type: "RT" | "RW";
  parentId: string | null;
  /** The parent RW's name, answered by the list itself (null when unlinked, and for an RW). */
  parentName: string | null;
  flags: Flags;
  slot: number | null;
  status: Status;
  subscription: "trial" | "aktif" | "tenggang" | "nonaktif";
  closedAt: string | null;
  createdAt: string;
  adminCount?: number;
}
interface Invitation {
  channel: "email" | "whatsapp" | null;
  sent: boolean;
  reason?: "no_contact" | "delivery_failed";
  hint?: string;
}
interface Slots {
  slots: { total: number; used: number; free: number };
}

const BASE = "/platform/communities";
const LIST = "/api/platform/tenants";

/** Every community, page after page (a platform holds as many as it has database slots: tens). */
async function allTenants(query: Record<string, string> = {}): Promise<Tenant[]> {
  const out: Tenant[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const page = await api.get<Page<Tenant>>(LIST, { query: { ...query, limit: 100, cursor } });
    out.push(...page.items);
    if (!page.nextCursor) {
      break;
    }
    cursor = page.nextCursor;
  }
  return out;
}

function SlotPool() {
  const health = useResource(() => api.get<Slots>("/api/platform/health"));
  return (
    <Show resource={health} lines={1}>
      {(h) => (
        <p class={h.slots.free === 0 ? "operator-warn" : "card"}>
          {h.slots.free === 0
            ? cm("slotsNone")
            : cm("slots", { free: h.slots.free, total: h.slots.total, used: h.slots.used })}
        </p>
      )}
    </Show>
  );
}

/** How long typing may pause before the search goes to the server (and into the address). */
const SEARCH_PAUSE_MS = 300;

/** The list's filters as the address holds them: Back, a reload or a shared link keep the search. */
function useListFilters() {
  const { query, route } = useLocation();
  const filters = {
    q: query.q ?? "",
    type: query.type === "RT" || query.type === "RW" ? query.type : "",
    status: STATUSES.includes(query.status as Status) ? (query.status as string) : "",
  };
  const set = (next: Partial<typeof filters>) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filters, ...next })) {
      if (v.trim()) {
        params.set(k, v.trim());
      }
    }
    const qs = params.toString();
    route(qs ? `${BASE}?${qs}` : BASE, true);
  };
  return { filters, set };
}

function List() {
  useLanguage();
  const { filters, set } = useListFilters();
  // What is typed shows at once; the server is asked (and the address changed) when typing pauses.
  const [typed, setTyped] = useState(filters.q);
  const sent = useRef(filters.q);
  useEffect(() => {
    const q = typed.trim();
    if (q === filters.q) {
      return;
    }
    const timer = setTimeout(() => {
      sent.current = q;
      set({ q });
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed, filters.q, filters.type, filters.status]);
  // Back (or a link) to an address with another search: the box follows it.
  useEffect(() => {
    if (filters.q !== sent.current) {
      sent.current = filters.q;
      setTyped(filters.q);
    }
  }, [filters.q]);
  const paged = usePaged<Tenant>(
    (cursor) =>
      api.get<Page<Tenant>>(LIST, {
        query: {
          limit: 50,
          cursor,
          q: filters.q || undefined,
          type: filters.type || undefined,
          status: filters.status || undefined,
        },
      }),
    [filters.q, filters.type, filters.status],
  );
  const columns: Column<Tenant>[] = [
    {
      label: cm("name"),
      // One element: on a phone the cell is a row of label and value, and the slug goes under the name.
      cell: (t) => (
        <span>
          <a href={`${BASE}/${t.id}`}>{t.name}</a>
          <br />
          <span class="muted">{t.slug}</span>
        </span>
      ),
    },
    { label: cm("type"), cell: (t) => t.type },
    { label: cm("parent"), cell: (t) => t.parentName ?? cm("none") },
    { label: cm("admins"), cell: (t) => String(t.adminCount ?? 0), numeric: true },
    { label: cm("slot"), cell: (t) => (t.slot === null ? cm("none") : String(t.slot)), numeric: true },
    { label: cm("status"), cell: (t) => communityStatus(t.status) },
    { label: cm("subscription"), cell: (t) => cm(t.subscription) },
  ];
  const filtered = Boolean(filters.q || filters.type || filters.status);
  return (
    <section aria-labelledby="communities-title">
      <div class="operator-head">
        <h1 id="communities-title">{cm("title")}</h1>
        <a class="button primary" href={`${BASE}/baru`}>
          {cm("create")}
        </a>
      </div>
      <SlotPool />
      <search class="filters" aria-label={cm("list")}>
        <Field label={cm("search")} name="q" value={typed} onInput={setTyped} />
        <Select
          label={cm("type")}
          name="type"
          value={filters.type}
          onInput={(v) => set({ type: v })}
          options={[
            { value: "", label: cm("all") },
            { value: "RT", label: "RT" },
            { value: "RW", label: "RW" },
          ]}
        />
        <Select
          label={cm("status")}
          name="status"
          value={filters.status}
          onInput={(v) => set({ status: v })}
          options={[
            { value: "", label: cm("all") },
            ...STATUSES.map((s) => ({ value: s, label: communityStatus(s) })),
          ]}
        />
      </search>
      <ShowPaged paged={paged} empty={filtered ? cm("noMatch") : cm("empty")} lines={6}>
        {(rows) => <DataTable caption={cm("list")} columns={columns} rows={rows} rowKey={(t) => t.id} />}
      </ShowPaged>
    </section>
  );
}

function FlagBoxes(props: { flags: Flags; onChange: (f: Flags) => void }) {
  return (
    <fieldset class="field checks">
      <legend>{cm("flags")}</legend>
      {FLAGS.map((f) => (
        <label key={f} class="check">
          <input
            type="checkbox"
            name={f}
            checked={props.flags[f]}
            onChange={(e) =>
              props.onChange({ ...props.flags, [f]: (e.currentTarget as HTMLInputElement).checked })
            }
          />{" "}
          {cm(`flag_${f}`)}
        </label>
      ))}
    </fieldset>
  );
}

function Outcome({ outcome }: { outcome: Invitation }) {
  return outcome.sent ? (
    <p role="status">{cm("sentVia", { channel: outcome.channel === "whatsapp" ? "WhatsApp" : "email" })}</p>
  ) : (
    <p class="operator-warn" role="status">
      {cm("notSent")}{" "}
      {outcome.reason === "no_contact" ? cm("noContact") : outcome.reason ? cm("deliveryFailed") : ""}
      {outcome.hint ? `. ${outcome.hint}` : ""}
    </p>
  );
}

function AdminFields(props: {
  name: string;
  email: string;
  wa: string;
  set: (k: "name" | "email" | "wa", v: string) => void;
  fields: Record<string, string>;
  prefix?: string;
}) {
  const p = props.prefix ?? "";
  return (
    <>
      <Field
        label={cm("inviteName")}
        name="adminName"
        value={props.name}
        onInput={(v) => props.set("name", v)}
        required
        error={props.fields[`${p}name`]}
      />
      <Field
        label={cm("inviteEmail")}
        name="adminEmail"
        type="email"
        value={props.email}
        onInput={(v) => props.set("email", v)}
        error={props.fields[`${p}email`]}
      />
      <Field
        label={cm("inviteWa")}
        name="adminWhatsapp"
        type="tel"
        value={props.wa}
        onInput={(v) => props.set("wa", v)}
        error={props.fields[`${p}whatsapp`]}
      />
    </>
  );
}

const invitee = (a: { name: string; email: string; wa: string }) => ({
  name: a.name.trim(),
  email: a.email.trim() || undefined,
  whatsapp: a.wa.trim() || undefined,
});

function Create() {
  useLanguage();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [type, setType] = useState<"RT" | "RW">("RT");
  const [parent, setParent] = useState("");
  const [flags, setFlags] = useState<Flags>({
    pasar: true,
    tamu: true,
    musyawarah: true,
    surat: true,
    warga: true,
  });
  const [admin, setAdmin] = useState({ name: "", email: "", wa: "" });
  const [created, setCreated] = useState<(Tenant & { adminInvitation: Invitation }) | null>(null);
  const rws = useResource(() => allTenants({ type: "RW" }));
  const { submit, busy, error, fields } = useSubmit((key) =>
    api.post<Tenant & { adminInvitation: Invitation }>(
      LIST,
      {
        name: name.trim(),
        slug: slug.trim(),
        type,
        parentSlug: type === "RT" && parent ? parent : undefined,
        flags,
        admin: invitee(admin),
      },
      { idempotencyKey: key },
    ),
  );
  if (created) {
    return (
      <section aria-labelledby="created-title">
        <h1 id="created-title">{cm("createdTitle", { name: created.name })}</h1>
        <Outcome outcome={created.adminInvitation} />
        <p>
          <a class="button" href={`${BASE}/${created.id}`}>
            {cm("open")}
          </a>{" "}
          <a href={BASE}>{cm("back")}</a>
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="create-title">
      <p>
        <a href={BASE}>← {cm("back")}</a>
      </p>
      <h1 id="create-title">{cm("newTitle")}</h1>
      <SlotPool />
      <form
        class="card operator-form"
        onSubmit={async (e) => {
          const done = await submit(e);
          if (done) {
            setCreated(done);
          }
        }}
      >
        <Field
          label={cm("newName")}
          name="name"
          value={name}
          onInput={setName}
          required
          error={fields.name}
        />
        <Field
          label={cm("newSlug")}
          name="slug"
          value={slug}
          onInput={setSlug}
          required
          error={fields.slug}
        />
        <Select
          label={cm("type")}
          name="type"
          value={type}
          onInput={(v) => setType(v === "RW" ? "RW" : "RT")}
          options={[
            { value: "RT", label: "RT" },
            { value: "RW", label: "RW" },
          ]}
        />
        {type === "RT" && (
          <Select
            label={cm("newParent")}
            name="parent"
            value={parent}
            onInput={setParent}
            error={fields.parentSlug}
            options={[
              { value: "", label: cm("noParent") },
              ...(rws.state === "ready"
                ? rws.data
                    .filter((r) => r.status !== "ditutup")
                    .map((r) => ({ value: r.slug, label: `${r.name} (${r.slug})` }))
                : []),
            ]}
          />
        )}
        <FlagBoxes flags={flags} onChange={setFlags} />
        <fieldset class="field">
          <legend>{cm("firstAdmin")}</legend>
          <AdminFields
            {...admin}
            set={(k, v) => setAdmin((a) => ({ ...a, [k]: v }))}
            fields={fields}
            prefix="admin."
          />
        </fieldset>
        <FormError error={error} />
        <Submit busy={busy}>{cm("createGo")}</Submit>
      </form>
    </section>
  );
}

interface Ref {
  id: string;
  slug: string;
  name: string;
  status: Status;
}
interface TenantDetail extends Tenant {
  parent: Ref | null;
  children: Ref[];
  invitedAdminCount: number;
}

function Detail() {
  useLanguage();
  const { params } = useRoute();
  const id = params.id ?? "";
  const one = useResource(() => api.get<TenantDetail>(`${LIST}/${id}`), [id]);
  // What the writes answered, over what was read: the forms stay (and say "saved") meanwhile.
  const [fresh, setFresh] = useState<Partial<TenantDetail>>({});
  const [archive, setArchive] = useState<string | null>(null);
  if (one.state === "error" && isNotFound(one.error)) {
    return (
      <section aria-labelledby="community-title">
        <p>
          <a href={BASE}>← {cm("back")}</a>
        </p>
        <h1 id="community-title">{cm("title")}</h1>
        <Empty>{cm("notFound")}</Empty>
      </section>
    );
  }
  return (
    <section aria-labelledby="community-title">
      <p>
        <a href={BASE}>← {cm("back")}</a>
      </p>
      <Show resource={one} lines={6}>
        {(found) => {
          const t = { ...found, ...fresh };
          return (
            <>
              {archive && (
                <p class="card" role="status">
                  {cm("closed", { archive })}
                </p>
              )}
              <Manage
                key={t.id}
                tenant={t}
                update={(next) => setFresh((f) => ({ ...f, ...next }))}
                closed={setArchive}
              />
            </>
          );
        }}
      </Show>
    </section>
  );
}

const isNotFound = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { status?: number }).status === 404;

type Update = (t: Partial<TenantDetail>) => void;

function Manage(props: { tenant: TenantDetail; update: Update; closed: (archive: string) => void }) {
  const { tenant: t, update } = props;
  const open = t.status !== "ditutup";
  return (
    <>
      <h1 id="community-title">{t.name}</h1>
      <dl class="facts card">
        <dt>{cm("slug")}</dt>
        <dd>{t.slug}</dd>
        <dt>{cm("type")}</dt>
        <dd>{t.type}</dd>
        {t.type === "RT" && (
          <>
            <dt>{cm("parent")}</dt>
            <dd>{t.parent ? `${t.parent.name} (${t.parent.slug})` : cm("none")}</dd>
          </>
        )}
        {t.type === "RW" && (
          <>
            <dt>{cm("children")}</dt>
            <dd>
              {t.children.length === 0
                ? cm("noChildren")
                : t.children.map((c, i) => (
                    <span key={c.id}>
                      {i > 0 && ", "}
                      <a href={`${BASE}/${c.id}`}>{c.name}</a> ({c.slug})
                    </span>
                  ))}
            </dd>
          </>
        )}
        <dt>{cm("status")}</dt>
        <dd>{communityStatus(t.status)}</dd>
        <dt>{cm("subscription")}</dt>
        <dd>{cm(t.subscription)}</dd>
        <dt>{cm("admins")}</dt>
        <dd>{t.adminCount ?? 0}</dd>
        <dt>{cm("invited")}</dt>
        <dd>{t.invitedAdminCount}</dd>
        <dt>{cm("slot")}</dt>
        <dd>{t.slot ?? cm("slotFreed")}</dd>
        <dt>{cm("created")}</dt>
        <dd>{dateTime(t.createdAt)}</dd>
        {t.closedAt && (
          <>
            <dt>{cm("closedAt")}</dt>
            <dd>{dateTime(t.closedAt)}</dd>
          </>
        )}
      </dl>
      {open && (
        <>
          <FlagsForm tenant={t} update={update} />
          {t.type === "RT" && <ParentForm tenant={t} update={update} />}
          <Invite tenant={t} />
          <Suspend tenant={t} update={update} />
          <Close tenant={t} update={update} closed={props.closed} />
        </>
      )}
    </>
  );
}

const patch = (id: string, body: unknown) =>
  api.patch<Tenant>(`${LIST}/${id}`, body, null).then((a) => a.data);

function FlagsForm({ tenant, update }: { tenant: Tenant; update: Update }) {
  const [flags, setFlags] = useState(tenant.flags);
  const [saved, setSaved] = useState(false);
  const { submit, busy, error } = useSubmit(() => patch(tenant.id, { flags }));
  return (
    <form
      class="card operator-form"
      aria-labelledby="flags-title"
      onSubmit={async (e) => {
        setSaved(false);
        const done = await submit(e);
        if (done) {
          setSaved(true);
          update(done);
        }
      }}
    >
      <h2 id="flags-title">{cm("flags")}</h2>
      <p class="muted">{cm("flagsHint")}</p>
      <FlagBoxes flags={flags} onChange={setFlags} />
      <FormError error={error} />
      {saved && <p role="status">{cm("saved")}</p>}
      <Submit busy={busy}>{cm("saveFlags")}</Submit>
    </form>
  );
}

function ParentForm({ tenant, update }: { tenant: TenantDetail; update: Update }) {
  const rwList = useResource(() => allTenants({ type: "RW" }));
  const open = rwList.state === "ready" ? rwList.data.filter((r) => r.status !== "ditutup") : [];
  // The current parent is a choice from the start, before (and whatever) the list of RWs says.
  const current = tenant.parent;
  const rws: Ref[] = current && !open.some((r) => r.id === current.id) ? [current, ...open] : open;
  const [parent, setParent] = useState(current?.slug ?? "");
  const [saved, setSaved] = useState(false);
  const { submit, busy, error, fields } = useSubmit(() => patch(tenant.id, { parentSlug: parent || null }));
  return (
    <form
      class="card operator-form"
      aria-labelledby="parent-title"
      onSubmit={async (e) => {
        setSaved(false);
        const done = await submit(e);
        if (done) {
          setSaved(true);
          update({ ...done, parent: rws.find((r) => r.id === done.parentId) ?? null });
        }
      }}
    >
      <h2 id="parent-title">{cm("link")}</h2>
      <p class="muted">{cm("linkHint")}</p>
      <Select
        label={cm("parent")}
        name="parentSlug"
        value={parent}
        onInput={setParent}
        error={fields.parentSlug}
        options={[
          { value: "", label: cm("noParent") },
          ...rws.map((r) => ({ value: r.slug, label: `${r.name} (${r.slug})` })),
        ]}
      />
      <FormError error={error} />
      {saved && <p role="status">{cm("saved")}</p>}
      <Submit busy={busy}>{cm("saveLink")}</Submit>
    </form>
  );
}

function Invite({ tenant }: { tenant: Tenant }) {
  const [admin, setAdmin] = useState({ name: "", email: "", wa: "" });
  const [outcome, setOutcome] = useState<Invitation | null>(null);
  const { submit, busy, error, fields } = useSubmit((key) =>
    api.post<Invitation>(`${LIST}/${tenant.id}/admin-invitations`, invitee(admin), { idempotencyKey: key }),
  );
  return (
    <form
      class="card operator-form"
      aria-labelledby="invite-title"
      onSubmit={async (e) => {
        setOutcome(null);
        const done = await submit(e);
        if (done) {
          setOutcome(done);
          setAdmin({ name: "", email: "", wa: "" });
        }
      }}
    >
      <h2 id="invite-title">{cm("invite")}</h2>
      <p class="muted">{cm("inviteHint")}</p>
      <AdminFields {...admin} set={(k, v) => setAdmin((a) => ({ ...a, [k]: v }))} fields={fields} />
      <FormError error={error} />
      {outcome && <Outcome outcome={outcome} />}
      <Submit busy={busy}>{cm("inviteSend")}</Submit>
    </form>
  );
}

function Suspend({ tenant, update }: { tenant: Tenant; update: Update }) {
  const suspended = tenant.status === "suspended";
  const { submit, busy, error } = useSubmit(() =>
    patch(tenant.id, { status: suspended ? "active" : "suspended" }),
  );
  if (tenant.status !== "active" && !suspended) {
    return null;
  }
  return (
    <div class="card operator-form">
      <h2>{suspended ? cm("reactivate") : cm("suspend")}</h2>
      <p class="muted">{cm("suspendHint")}</p>
      <FormError error={error} />
      <button
        type="button"
        disabled={busy}
        onClick={async () => {
          const done = await submit();
          if (done) {
            update(done);
          }
        }}
      >
        {suspended ? cm("reactivate") : cm("suspend")}
      </button>
    </div>
  );
}

function Close(props: { tenant: Tenant; update: Update; closed: (archive: string) => void }) {
  const { tenant } = props;
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState("");
  const [local, setLocal] = useState<string | undefined>();
  const { submit, busy, error } = useSubmit((key) =>
    request<{ tenant: Tenant; archiveId: string }>("DELETE", `${LIST}/${tenant.id}`, {
      body: { confirmSlug: typed.trim() },
      idempotencyKey: key,
    }).then((a) => a.data),
  );
  return (
    <div class="card operator-form">
      <h2>{cm("close")}</h2>
      <p>{cm("closeHint")}</p>
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        {cm("close")}
      </button>
      <Confirm
        open={asking}
        danger
        title={cm("closeTitle", { name: tenant.name })}
        confirmLabel={cm("closeGo")}
        busy={busy}
        error={error}
        onCancel={() => setAsking(false)}
        onConfirm={async () => {
          if (typed.trim() !== tenant.slug) {
            setLocal(cm("slugMismatch"));
            return;
          }
          setLocal(undefined);
          const done = await submit();
          if (done) {
            setAsking(false);
            props.closed(done.archiveId);
            props.update(done.tenant);
          }
        }}
      >
        <p>{cm("closeHint")}</p>
        <Field
          label={cm("closeConfirm", { slug: tenant.slug })}
          name="confirmSlug"
          value={typed}
          onInput={setTyped}
          required
          error={local}
        />
      </Confirm>
    </div>
  );
}
