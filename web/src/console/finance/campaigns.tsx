import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api } from "../../api/client";
import { date, jakartaDay, money } from "../../format";
import { useLanguage } from "../../i18n";
import { Field, FormError, Submit, TextArea, useSubmit } from "../../ui/forms";
import { Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { Confirm, ConflictNotice, currentEtag, DataTable, isConflict } from "../ui";
import { rupiahInput, Status, useDuty } from "./common";
import { fx } from "./text";

interface Campaign {
  id: string;
  title: string;
  description: string;
  target: number;
  deadline: string;
  status: "aktif" | "selesai" | "dibatalkan";
  progress: { confirmed: number; percent: number; donors: number };
}
interface Donation {
  id: string;
  donorName: string | null;
  anonymous: boolean;
  amount: number;
  note: string | null;
  status: "dijanjikan" | "dikonfirmasi" | "ditolak";
  createdAt: string;
}

/** `/pengurus/keuangan/kampanye`: the campaigns with what each has raised; staff start one. */
export function Campaigns() {
  useLanguage();
  const [tick, setTick] = useState(0);
  const list = usePaged(
    (cursor) =>
      api.get<{ items: Campaign[]; nextCursor: string | null }>("/api/kampanye", {
        query: { limit: 20, cursor },
      }),
    [tick],
  );
  return (
    <section aria-labelledby="fin-camp">
      <h1 id="fin-camp">{fx("campaigns")}</h1>
      <NewCampaign onSaved={() => setTick((n) => n + 1)} />
      <ShowPaged paged={list} empty={fx("noCampaigns")}>
        {(items) => (
          <DataTable
            caption={fx("campaigns")}
            rowKey={(c) => c.id}
            rows={items}
            columns={[
              {
                label: fx("campaignTitle"),
                cell: (c) => <a href={`/pengurus/keuangan/kampanye/${c.id}`}>{c.title}</a>,
              },
              {
                label: fx("progress"),
                numeric: true,
                cell: (c) =>
                  `${money(c.progress.confirmed)} / ${money(c.target)} (${Math.round(c.progress.percent)}%)`,
              },
              { label: fx("deadline"), cell: (c) => date(c.deadline) },
              { label: fx("status"), cell: (c) => <Status value={c.status} /> },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}

function NewCampaign(props: { onSaved: () => void }) {
  const empty = { title: "", description: "", target: "", deadline: "" };
  const [form, setForm] = useState(empty);
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const save = useSubmit(async (key) => {
    await api.post(
      "/api/kampanye",
      {
        title: form.title.trim(),
        description: form.description.trim(),
        target: rupiahInput(form.target),
        deadline: form.deadline,
      },
      { idempotencyKey: key },
    );
    setForm(empty);
    props.onSaved();
  });
  return (
    <details class="card">
      <summary>{fx("newCampaign")}</summary>
      <form class="fin-form" onSubmit={save.submit}>
        <div class="fin-wide">
          <Field
            label={fx("campaignTitle")}
            name="title"
            value={form.title}
            onInput={set("title")}
            required
            error={save.fields.title}
          />
        </div>
        <Field
          label={fx("target")}
          name="target"
          inputMode="numeric"
          value={form.target}
          onInput={set("target")}
          required
          error={save.fields.target}
        />
        <Field
          label={fx("deadline")}
          name="deadline"
          type="date"
          value={form.deadline}
          onInput={set("deadline")}
          required
          error={save.fields.deadline}
        />
        <div class="fin-wide">
          <TextArea
            label={fx("description")}
            name="description"
            value={form.description}
            onInput={set("description")}
            required
            rows={3}
            error={save.fields.description}
          />
        </div>
        <FormError error={save.error} />
        <div class="actions">
          <Submit busy={save.busy}>{fx("create")}</Submit>
        </div>
      </form>
    </details>
  );
}

/**
 * `/pengurus/keuangan/kampanye/:id`: a campaign with its donations; the treasurer confirms or rejects a
 * pledge (never their own: the API says so), records cash given in hand, and closes the campaign (with
 * its ETag).
 */
export function CampaignDetail() {
  const { params } = useRoute();
  const duty = useDuty();
  const path = `/api/kampanye/${params.id}`;
  const campaign = useResource(() => api.read<Campaign & { donations: Donation[] }>(path), [path]);
  const [notice, setNotice] = useState<string | null>(null);
  const [deciding, setDeciding] = useState<{ donation: Donation; status: "dikonfirmasi" | "ditolak" } | null>(
    null,
  );
  const decide = useSubmit(async (key) => {
    if (!deciding) {
      return;
    }
    await api.put(`${path}/donasi/${deciding.donation.id}`, { status: deciding.status }, null, {
      idempotencyKey: key,
    });
    setNotice(`${fx(deciding.status)}: ${money(deciding.donation.amount)}`);
    setDeciding(null);
    if (campaign.state === "ready") {
      campaign.reload();
    }
  });
  const [closing, setClosing] = useState(false);
  const close = useSubmit(async (key) => {
    const etag = campaign.state === "ready" ? campaign.data.etag : null;
    await api.put(path, { status: "selesai" }, etag, { idempotencyKey: key });
    setClosing(false);
    if (campaign.state === "ready") {
      campaign.reload();
    }
  });
  const closeMine = useSubmit(async (key) => {
    await api.put(path, { status: "selesai" }, await currentEtag(path), { idempotencyKey: key });
    setClosing(false);
    if (campaign.state === "ready") {
      campaign.reload();
    }
  });
  return (
    <section aria-labelledby="fin-campaign">
      <Show resource={campaign} lines={4}>
        {({ data: c }) => (
          <>
            <h1 id="fin-campaign">{c.title}</h1>
            <p>
              <a href="/pengurus/keuangan/kampanye">{fx("back")}</a>
            </p>
            <p>
              <Status value={c.status} /> · {fx("deadline")}: {date(c.deadline)}
            </p>
            <p class="fin-desc">{c.description}</p>
            <dl class="fin-totals">
              <div>
                <dt>{fx("progress")}</dt>
                <dd>{money(c.progress.confirmed)}</dd>
              </div>
              <div>
                <dt>{fx("target")}</dt>
                <dd>{money(c.target)}</dd>
              </div>
              <div>
                <dt>{fx("donations")}</dt>
                <dd>{fx("donors", { count: c.progress.donors })}</dd>
              </div>
            </dl>
            {notice ? (
              <p class="card" role="status">
                {notice}
              </p>
            ) : null}
            {duty.finance && c.status === "aktif" ? (
              <CashDonation
                path={path}
                onSaved={(text) => {
                  setNotice(text);
                  if (campaign.state === "ready") {
                    campaign.reload();
                  }
                }}
              />
            ) : null}
            <h2>{fx("donations")}</h2>
            {c.donations.length === 0 ? (
              <p class="empty">{fx("noDonations")}</p>
            ) : (
              <DataTable
                caption={fx("donations")}
                rowKey={(d) => d.id}
                rows={c.donations}
                columns={[
                  { label: fx("date"), cell: (d) => date(d.createdAt) },
                  {
                    label: fx("donor"),
                    cell: (d) => (
                      <div class="fin-cell">
                        {d.donorName ?? fx("anonymous")}
                        {d.anonymous && d.donorName ? <span class="muted"> ({fx("anonymous")})</span> : null}
                        {d.note ? <div class="muted">{d.note}</div> : null}
                      </div>
                    ),
                  },
                  { label: fx("amount"), numeric: true, cell: (d) => money(d.amount) },
                  { label: fx("status"), cell: (d) => <Status value={d.status} /> },
                  ...(duty.finance
                    ? [
                        {
                          label: fx("actions"),
                          cell: (d: Donation) =>
                            d.status === "dijanjikan" ? (
                              <div class="fin-row-actions">
                                <button
                                  type="button"
                                  onClick={() => setDeciding({ donation: d, status: "dikonfirmasi" })}
                                >
                                  {fx("confirmDonation")}
                                </button>
                                <button
                                  type="button"
                                  onClick={() => setDeciding({ donation: d, status: "ditolak" })}
                                >
                                  {fx("reject")}
                                </button>
                              </div>
                            ) : null,
                        },
                      ]
                    : []),
                ]}
              />
            )}
            {duty.finance && c.status === "aktif" ? (
              <div class="actions">
                <button type="button" onClick={() => setClosing(true)}>
                  {fx("close")}
                </button>
              </div>
            ) : null}
            {isConflict(close.error) && closing ? (
              <ConflictNotice
                busy={closeMine.busy}
                onTheirs={() => {
                  setClosing(false);
                  if (campaign.state === "ready") {
                    campaign.reload();
                  }
                }}
                onMine={() => closeMine.submit()}
              />
            ) : null}
          </>
        )}
      </Show>
      <Confirm
        open={deciding !== null}
        title={
          deciding
            ? `${fx(deciding.status === "dikonfirmasi" ? "confirmDonation" : "reject")}: ${money(deciding.donation.amount)}`
            : ""
        }
        busy={decide.busy}
        error={decide.error}
        danger={deciding?.status === "ditolak"}
        onConfirm={() => decide.submit()}
        onCancel={() => setDeciding(null)}
      />
      <Confirm
        open={closing && !isConflict(close.error)}
        title={fx("closeTitle")}
        confirmLabel={fx("close")}
        busy={close.busy}
        error={close.error}
        onConfirm={() => close.submit()}
        onCancel={() => setClosing(false)}
      />
    </section>
  );
}

function CashDonation(props: { path: string; onSaved: (notice: string) => void }) {
  const empty = { donorName: "", amount: "", note: "" };
  const [form, setForm] = useState(empty);
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const save = useSubmit(async (key) => {
    const amount = rupiahInput(form.amount);
    await api.post(
      `${props.path}/donasi`,
      { donorName: form.donorName.trim(), amount, ...(form.note.trim() ? { note: form.note.trim() } : {}) },
      { idempotencyKey: key },
    );
    setForm(empty);
    props.onSaved(`${fx("donationSaved")} ${money(amount)} (${jakartaDay(new Date())})`);
  });
  return (
    <details class="card">
      <summary>{fx("cashDonation")}</summary>
      <form class="fin-form" onSubmit={save.submit}>
        <Field
          label={fx("donorName")}
          name="donorName"
          value={form.donorName}
          onInput={set("donorName")}
          required
          error={save.fields.donorName}
        />
        <Field
          label={fx("amount")}
          name="amount"
          inputMode="numeric"
          value={form.amount}
          onInput={set("amount")}
          required
          error={save.fields.amount}
        />
        <div class="fin-wide">
          <TextArea
            label={fx("note")}
            name="note"
            value={form.note}
            onInput={set("note")}
            rows={2}
            error={save.fields.note}
          />
        </div>
        <FormError error={save.error} />
        <div class="actions">
          <Submit busy={save.busy}>{fx("create")}</Submit>
        </div>
      </form>
    </details>
  );
}
