import { useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type Answer, api } from "../../api/client";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { Confirm, ConflictNotice, currentEtag, DataTable, isConflict } from "../ui";
import { AnnouncementPreview } from "./Preview";
import { tx } from "./text";
import type { ChannelDelivery, DeliverySummary, Post, PostKind } from "./types";

/** `/pengurus/konten/<kind>/baru` and `/pengurus/konten/<kind>/:id`: write, edit, publish, delete. */
export function PostEditor({ kind, id }: { kind: PostKind; id?: string }) {
  const back = kind === "pengumuman" ? "/pengurus/konten" : "/pengurus/konten/berita";
  return (
    <section aria-labelledby="konten-editor-title">
      <p>
        <a href={back}>{kind === "pengumuman" ? tx("backPengumuman") : tx("backBerita")}</a>
      </p>
      {id ? <Existing kind={kind} id={id} /> : <Form kind={kind} />}
    </section>
  );
}

function Existing({ kind, id }: { kind: PostKind; id: string }) {
  const path = `/api/${kind}/${id}`;
  const post = useResource(() => api.read<Post>(path), [path]);
  return (
    <Show resource={post} lines={8}>
      {(answer) => (
        <Form
          key={answer.etag}
          kind={kind}
          answer={answer}
          reload={() => post.state === "ready" && post.reload()}
        />
      )}
    </Show>
  );
}

function Form(props: { kind: PostKind; answer?: Answer<Post>; reload?: () => void }) {
  const { route, query } = useLocation();
  const announcement = props.kind === "pengumuman";
  const start = props.answer?.data;
  const etag = useRef(props.answer?.etag ?? null);
  const [post, setPost] = useState(start);
  const [title, setTitle] = useState(start?.title ?? "");
  const [body, setBody] = useState(start?.body ?? "");
  const [status, setStatus] = useState<string>(start?.status ?? (announcement ? "terbit" : "draft"));
  const [urgent, setUrgent] = useState(start?.urgent ?? false);
  const [whatsapp, setWhatsapp] = useState(start?.channels?.whatsapp ?? false);
  const [email, setEmail] = useState(start?.channels?.email ?? false);
  const [scope, setScope] = useState<string>(start?.audience?.scope ?? "semua");
  const [blocks, setBlocks] = useState((start?.audience?.blocks ?? []).join(", "));
  const [saved, setSaved] = useState<string | null>(
    query.saved ? tx(query.saved === "terbit" ? "published" : "saved") : null,
  );
  const [deleting, setDeleting] = useState(false);
  const [deliveryTick, setDeliveryTick] = useState(0);

  const payload = () => ({
    title: title.trim(),
    body,
    status,
    ...(announcement
      ? {
          urgent,
          channels: { push: true, whatsapp, email },
          audience:
            scope === "blok"
              ? {
                  scope: "blok",
                  blocks: blocks
                    .split(",")
                    .map((b) => b.trim().toUpperCase())
                    .filter(Boolean),
                }
              : { scope: "semua" },
        }
      : {}),
  });
  const save = useSubmit(async (key) => {
    if (!post) {
      const made = await api.post<Post>(`/api/${props.kind}`, payload(), { idempotencyKey: key });
      route(`/pengurus/konten/${props.kind}/${made.id}?saved=${made.status}`);
      return true;
    }
    const a = await api.put<Post>(`/api/${props.kind}/${post.id}`, payload(), etag.current);
    etag.current = a.etag ?? etag.current;
    setPost(a.data);
    setSaved(tx(a.data.status === "terbit" && announcement ? "published" : "saved"));
    setDeliveryTick((n) => n + 1);
    return true;
  });
  const remove = useSubmit(async () => {
    await api.del(`/api/${props.kind}/${post?.id}`, etag.current);
    return true;
  });
  const mine = async () => {
    etag.current = await currentEtag(`/api/${props.kind}/${post?.id}`);
    await save.submit();
  };
  const heading = post
    ? announcement
      ? tx("editPengumuman")
      : tx("editBerita")
    : announcement
      ? tx("newPengumuman")
      : tx("newBerita");

  return (
    <>
      <h1 id="konten-editor-title">{heading}</h1>
      {saved && (
        <p class="notice" role="status">
          {saved}
        </p>
      )}
      <div class="konten-editor">
        <form
          class="card"
          onSubmit={(e) => {
            setSaved(null);
            return save.submit(e);
          }}
        >
          <Field
            label={tx("titleLabel")}
            name="title"
            value={title}
            onInput={setTitle}
            required
            minLength={3}
            error={save.fields.title}
          />
          <TextArea
            label={tx("bodyLabel")}
            name="body"
            value={body}
            onInput={setBody}
            rows={8}
            required
            maxLength={20000}
            error={save.fields.body}
          />
          {announcement && (
            <>
              <fieldset class="konten-checks">
                <legend>{tx("channels")}</legend>
                <p class="muted">{tx("channelPush")}</p>
                <label>
                  <input
                    type="checkbox"
                    name="whatsapp"
                    checked={whatsapp}
                    onChange={(e) => setWhatsapp((e.currentTarget as HTMLInputElement).checked)}
                  />
                  {tx("channelWhatsapp")}
                </label>
                <label>
                  <input
                    type="checkbox"
                    name="email"
                    checked={email}
                    onChange={(e) => setEmail((e.currentTarget as HTMLInputElement).checked)}
                  />
                  {tx("channelEmail")}
                </label>
                <label>
                  <input
                    type="checkbox"
                    name="urgent"
                    checked={urgent}
                    onChange={(e) => setUrgent((e.currentTarget as HTMLInputElement).checked)}
                  />
                  {tx("urgent")}
                </label>
              </fieldset>
              <Select
                label={tx("audience")}
                name="scope"
                value={scope}
                onInput={setScope}
                options={[
                  { value: "semua", label: tx("audienceAll") },
                  { value: "blok", label: tx("audienceBlocks") },
                ]}
              />
              {scope === "blok" && (
                <Field
                  label={tx("blocksLabel")}
                  name="blocks"
                  value={blocks}
                  onInput={setBlocks}
                  required
                  error={save.fields["audience.blocks"] ?? save.fields.audience}
                />
              )}
            </>
          )}
          <Select
            label={tx("statusLabel")}
            name="status"
            value={status}
            onInput={setStatus}
            options={[
              { value: "terbit", label: tx("publishNow") },
              { value: "draft", label: tx("saveDraft") },
            ]}
          />
          {announcement && post?.status === "terbit" && <p class="muted">{tx("resendNote")}</p>}
          {isConflict(save.error) ? (
            <ConflictNotice busy={save.busy} onTheirs={() => props.reload?.()} onMine={mine} />
          ) : (
            <FormError error={save.error} />
          )}
          <div class="actions">
            <Submit busy={save.busy}>{status === "terbit" && !post ? tx("publish") : tx("save")}</Submit>
            {post && (
              <button type="button" class="danger" onClick={() => setDeleting(true)}>
                {tx("delete")}
              </button>
            )}
          </div>
        </form>
        {announcement && (
          <AnnouncementPreview title={title} body={body} urgent={urgent} whatsapp={whatsapp} email={email} />
        )}
      </div>
      {announcement && post && <Delivery id={post.id} tick={deliveryTick} />}
      <Confirm
        open={deleting}
        title={tx("deleteConfirm", { title: post?.title ?? "" })}
        confirmLabel={tx("delete")}
        danger
        busy={remove.busy}
        error={remove.error}
        onCancel={() => setDeleting(false)}
        onConfirm={async () => {
          if (await remove.submit()) {
            setDeleting(false);
            route(props.kind === "pengumuman" ? "/pengurus/konten" : "/pengurus/konten/berita");
          }
        }}
      />
    </>
  );
}

const CHANNELS = ["push", "whatsapp", "email"] as const;

/** How the current version's fan-out went, per channel. */
function Delivery({ id, tick }: { id: string; tick: number }) {
  const summary = useResource(() => api.get<DeliverySummary>(`/api/pengumuman/${id}/pengiriman`), [id, tick]);
  return (
    <section class="card" aria-labelledby="konten-delivery-title">
      <h2 id="konten-delivery-title">{tx("delivery")}</h2>
      <Show resource={summary} lines={3}>
        {(s) =>
          s.version === null ? (
            <p class={s.deliveryPending ? "alert" : "muted"} role="status">
              {s.deliveryPending ? tx("deliveryPending") : tx("deliveryNone")}
            </p>
          ) : (
            <>
              {s.deliveryPending && (
                <p class="alert" role="status">
                  {tx("deliveryPending")}
                </p>
              )}
              {s.channels ? (
                <ChannelTable channels={s.channels} />
              ) : (
                <p class="muted">{tx("deliveryUnknown")}</p>
              )}
            </>
          )
        }
      </Show>
    </section>
  );
}

function ChannelTable({ channels }: { channels: NonNullable<DeliverySummary["channels"]> }) {
  const name = { push: tx("previewPush"), whatsapp: tx("channelWhatsapp"), email: tx("channelEmail") };
  return (
    <DataTable<{ channel: (typeof CHANNELS)[number]; d: ChannelDelivery }>
      caption={tx("deliveryCaption")}
      rowKey={(r) => r.channel}
      rows={CHANNELS.map((channel) => ({ channel, d: channels[channel] }))}
      columns={[
        { label: tx("channel"), cell: (r) => name[r.channel] },
        { label: tx("total"), cell: (r) => r.d.total, numeric: true },
        { label: tx("queued"), cell: (r) => r.d.queued, numeric: true },
        { label: tx("sent"), cell: (r) => r.d.sent, numeric: true },
        { label: tx("failed"), cell: (r) => r.d.failed, numeric: true },
        { label: tx("skipped"), cell: (r) => r.d.skipped, numeric: true },
      ]}
    />
  );
}
