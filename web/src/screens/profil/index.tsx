import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { ApiError, api, saveBlob } from "../../api/client";
import { date, money } from "../../format";
import { type MessageKey, t, useLanguage } from "../../i18n";
import { PushToggle } from "../../pwa/PushToggle";
import { signOut } from "../../session";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { Empty, Show, useResource } from "../../ui/states";
import { gateway } from "../iuran";
import { ContactVerify } from "./ContactVerify";

interface Me {
  id: string;
  name: string;
  email: string | null;
  whatsapp: string | null;
  emailVerified?: boolean;
  whatsappVerified?: boolean;
  /** False for an account that only signs in by a code (issue 45): it may set a password here. */
  hasPassword?: boolean;
  unit?: { id: string; block: string; number: string } | null;
  /** The newest request for a house: a house is granted by the secretariat, never claimed. */
  unitRequest?: {
    id: string;
    block: string;
    number: string;
    status: "diajukan" | "diterima" | "ditolak";
    reason: string | null;
  } | null;
  profileComplete: boolean;
}
interface Member {
  id: string;
  name: string;
  nik: string;
  relationship: string;
  isMe: boolean;
}
interface Household {
  unitId: string;
  unit: { block: string; number: string } | null;
  members: Member[];
}
interface Correction {
  id: string;
  memberName: string | null;
  field: string;
  value: string;
  status: "diajukan" | "diterima" | "ditolak";
  reason: string | null;
  createdAt: string;
}
interface Preferences {
  push: boolean;
  whatsapp: boolean;
  email: boolean;
  quietHours: { start: string; end: string };
}

/** The fields of a household member a resident may ask the secretariat to correct (the API's list). */
const CORRECTABLE = [
  "name",
  "nik",
  "sex",
  "birthDate",
  "birthPlace",
  "religion",
  "education",
  "occupation",
  "maritalStatus",
  "citizenship",
  "residenceStatus",
  "lainnya",
] as const;

/** `/profil`: my profile, my household and its corrections, notifications, my data, signing out everywhere. */
export function Profil() {
  useLanguage();
  return (
    <section class="profil" aria-labelledby="profil-title">
      <h1 id="profil-title">{t("profil.title")}</h1>
      <MovedOut />
      <ProfileForm />
      <HouseholdBlock />
      <PreferencesForm />
      <DataExport />
      <SignOutEverywhere />
    </section>
  );
}

function ProfileForm() {
  const me = useResource(() => api.read<Me>("/api/user/me"));
  return (
    <article class="card" aria-labelledby="profil-me-title">
      <h2 id="profil-me-title">{t("profil.me")}</h2>
      <Show resource={me} lines={5}>
        {(answer) => <ProfileFields me={answer.data} etag={answer.etag} />}
      </Show>
    </article>
  );
}

function ProfileFields({ me, etag }: { me: Me; etag: string | null }) {
  const [fullName, setFullName] = useState(me.name);
  const [whatsapp, setWhatsapp] = useState(me.whatsapp ?? "");
  // The house asked for while it waits, else the granted one: saving it unchanged asks for nothing.
  const waiting = me.unitRequest?.status === "diajukan" ? me.unitRequest : null;
  const [block, setBlock] = useState(waiting?.block ?? me.unit?.block ?? "");
  const [houseNumber, setHouseNumber] = useState(waiting?.number ?? me.unit?.number ?? "");
  const [saved, setSaved] = useState<Me | null>(null);
  const [version, setVersion] = useState(etag);
  const form = useSubmit(() =>
    api.put<Me>(
      "/api/user/profile",
      {
        fullName: fullName.trim(),
        whatsapp,
        ...(block.trim() || houseNumber.trim() ? { block, houseNumber } : {}),
      },
      version,
    ),
  );
  const onSubmit = async (event: Event) => {
    setSaved(null);
    const answer = await form.submit(event);
    if (answer) {
      setSaved(answer.data);
      setVersion(answer.etag);
    }
  };
  const complete = saved?.profileComplete ?? me.profileComplete;
  const current = saved ?? me;
  const unit = current.unit;
  const request = current.unitRequest;
  return (
    <>
      <form onSubmit={onSubmit}>
        <p class={complete ? "muted" : "profil-incomplete"}>
          {complete ? t("profil.complete") : t("profil.incomplete")}
        </p>
        <Field
          label={t("profil.fullName")}
          name="fullName"
          autoComplete="name"
          required
          value={fullName}
          onInput={setFullName}
          error={form.fields.fullName}
        />
        <Field
          label={t("profil.whatsapp")}
          name="whatsapp"
          type="tel"
          autoComplete="tel"
          required
          value={whatsapp}
          onInput={setWhatsapp}
          error={form.fields.whatsapp}
        />
        <fieldset>
          <legend>{t("profil.house")}</legend>
          <p class="muted">
            {unit
              ? t("profil.houseGranted", { block: unit.block, number: unit.number })
              : t("profil.houseNone")}
          </p>
          {request?.status === "diajukan" && (
            <p class="profil-incomplete" role="status">
              {t("profil.housePending", { block: request.block, number: request.number })}
            </p>
          )}
          {request?.status === "ditolak" && (
            <p class="muted">
              {t("profil.houseDeclined", {
                block: request.block,
                number: request.number,
                reason: request.reason ?? "",
              })}
            </p>
          )}
          <p class="muted">{t("profil.houseHint")}</p>
          <div class="profil-house">
            <Field
              label={t("profil.block")}
              name="block"
              value={block}
              onInput={setBlock}
              error={form.fields.block}
            />
            <Field
              label={t("profil.houseNumber")}
              name="houseNumber"
              value={houseNumber}
              onInput={setHouseNumber}
              error={form.fields.houseNumber}
            />
          </div>
        </fieldset>
        <FormError error={form.error} />
        {saved && (
          <p class="profil-saved" role="status">
            {t("profil.saved")}
          </p>
        )}
        <Submit busy={form.busy}>{t("profil.save")}</Submit>
      </form>
      {current.whatsapp && (
        <ContactVerify
          key={`whatsapp:${current.whatsapp}`}
          channel="whatsapp"
          contact={current.whatsapp}
          verified={current.whatsappVerified ?? false}
        />
      )}
      {current.email && (
        <ContactVerify
          key={`email:${current.email}`}
          channel="email"
          contact={current.email}
          verified={current.emailVerified ?? false}
        />
      )}
      {current.hasPassword === false && <CreatePassword />}
    </>
  );
}

/**
 * "Buat kata sandi" (issue 45): a member who signs in by a code (WhatsApp or one handed over by an
 * officer) has no password; they may set one here, with no more than their session.
 */
function CreatePassword() {
  const [password, setPassword] = useState("");
  const [done, setDone] = useState(false);
  const form = useSubmit(async () => {
    await api.post("/api/user/password", { newPassword: password });
    return true;
  });
  const onSubmit = async (event: Event) => {
    if (await form.submit(event)) {
      setDone(true);
      setPassword("");
    }
  };
  if (done) {
    return (
      <p class="profil-saved" role="status">
        {t("profil.passwordCreated")}
      </p>
    );
  }
  return (
    <form onSubmit={onSubmit} aria-labelledby="profil-password-title">
      <h3 id="profil-password-title">{t("profil.passwordCreate")}</h3>
      <p class="muted">{t("profil.passwordCreateIntro")}</p>
      <Field
        label={t("profil.passwordNew")}
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        value={password}
        onInput={setPassword}
        error={form.fields.newPassword}
      />
      <FormError error={form.error} />
      <Submit busy={form.busy}>{t("profil.passwordCreate")}</Submit>
    </form>
  );
}

function HouseholdBlock() {
  const household = useResource(() => api.get<Household>("/api/kependudukan/household"));
  const corrections = useResource(() =>
    api.get<{ items: Correction[] }>("/api/kependudukan/household/corrections", { query: { limit: 20 } }),
  );
  return (
    <article class="card" aria-labelledby="profil-household-title">
      <h2 id="profil-household-title">{t("profil.household")}</h2>
      {household.state === "error" &&
      household.error instanceof ApiError &&
      household.error.problem.code === "profile_incomplete" ? (
        <Empty>{t("profil.householdNeedsProfile")}</Empty>
      ) : (
        <Show resource={household} lines={4}>
          {(h) => (
            <>
              {h.unit && (
                <p class="muted">{t("profil.unit", { block: h.unit.block, number: h.unit.number })}</p>
              )}
              {h.members.length === 0 ? (
                <Empty>{t("profil.householdEmpty")}</Empty>
              ) : (
                <ul class="rows">
                  {h.members.map((m) => (
                    <li key={m.id}>
                      <span>
                        {m.name}
                        {m.isMe && <span class="badge">{t("profil.you")}</span>}
                        <br />
                        <span class="muted">{m.relationship.replace(/_/g, " ")}</span>
                      </span>
                      <span class="muted">{m.nik}</span>
                    </li>
                  ))}
                </ul>
              )}
              <h3>{t("profil.corrections")}</h3>
              <Show resource={corrections} lines={2}>
                {(page) =>
                  page.items.length === 0 ? (
                    <Empty>{t("profil.correctionsNone")}</Empty>
                  ) : (
                    <ul class="rows">
                      {page.items.map((c) => (
                        <li key={c.id}>
                          <span>
                            {t(`profil.field.${c.field}` as MessageKey)}
                            {c.memberName && ` · ${c.memberName}`}: {c.value}
                            <br />
                            <span class="muted">
                              {date(c.createdAt)}
                              {c.reason && ` · ${c.reason}`}
                            </span>
                          </span>
                          <span class="badge">{t(`profil.correction.${c.status}` as MessageKey)}</span>
                        </li>
                      ))}
                    </ul>
                  )
                }
              </Show>
              <CorrectionForm
                members={h.members}
                onSent={corrections.state === "ready" ? corrections.reload : () => {}}
              />
            </>
          )}
        </Show>
      )}
    </article>
  );
}

/** Asks the secretariat to correct one field of a member (or anything else): nothing changes until decided. */
function CorrectionForm({ members, onSent }: { members: Member[]; onSent: () => void }) {
  const [open, setOpen] = useState(false);
  const [memberId, setMemberId] = useState(members.find((m) => m.isMe)?.id ?? members[0]?.id ?? "");
  const [field, setField] = useState<string>(members.length ? "name" : "lainnya");
  const [value, setValue] = useState("");
  const [note, setNote] = useState("");
  const [sent, setSent] = useState(false);
  const form = useSubmit((key) =>
    api.post<Correction>(
      "/api/kependudukan/household/corrections",
      {
        ...(field === "lainnya" ? {} : { memberId }),
        field,
        value: value.trim(),
        ...(note.trim() ? { note: note.trim() } : {}),
      },
      { idempotencyKey: key },
    ),
  );
  const onSubmit = async (event: Event) => {
    setSent(false);
    if (await form.submit(event)) {
      setValue("");
      setNote("");
      setSent(true);
      onSent();
    }
  };
  if (!open) {
    return (
      <>
        {sent && (
          <p class="profil-saved" role="status">
            {t("profil.correctionSent")}
          </p>
        )}
        <button type="button" onClick={() => setOpen(true)}>
          {t("profil.correctionOpen")}
        </button>
      </>
    );
  }
  return (
    <form onSubmit={onSubmit} class="profil-correction">
      <h3>{t("profil.correctionOpen")}</h3>
      <Select
        label={t("profil.correctionField")}
        name="field"
        value={field}
        onInput={setField}
        options={CORRECTABLE.filter((f) => members.length > 0 || f === "lainnya").map((f) => ({
          value: f,
          label: t(`profil.field.${f}` as MessageKey),
        }))}
        error={form.fields.field}
      />
      {field !== "lainnya" && (
        <Select
          label={t("profil.correctionMember")}
          name="memberId"
          value={memberId}
          onInput={setMemberId}
          options={members.map((m) => ({ value: m.id, label: m.name }))}
          error={form.fields.memberId}
        />
      )}
      <Field
        label={t("profil.correctionValue")}
        name="value"
        required
        value={value}
        onInput={setValue}
        error={form.fields.value}
      />
      <TextArea
        label={t("profil.correctionNote")}
        name="note"
        rows={2}
        value={note}
        onInput={setNote}
        error={form.fields.note}
      />
      <FormError error={form.error} />
      {sent && (
        <p class="profil-saved" role="status">
          {t("profil.correctionSent")}
        </p>
      )}
      <Submit busy={form.busy}>{t("profil.correctionSend")}</Submit>
    </form>
  );
}

function PreferencesForm() {
  const prefs = useResource(() => api.get<Preferences>("/api/user/notification-preferences"));
  return (
    <article class="card" aria-labelledby="profil-notif-title">
      <h2 id="profil-notif-title">{t("profil.notifications")}</h2>
      <PushToggle />
      <Show resource={prefs} lines={4}>
        {(p) =>
          // An answer not in the documented shape is a failure to show, not a screen to break.
          p?.quietHours ? (
            <PreferenceFields initial={p} />
          ) : (
            <p class="alert" role="alert">
              {t("common.error")}
            </p>
          )
        }
      </Show>
    </article>
  );
}

function PreferenceFields({ initial }: { initial: Preferences }) {
  const [prefs, setPrefs] = useState(initial);
  const [saved, setSaved] = useState(false);
  const form = useSubmit(() => api.put<Preferences>("/api/user/notification-preferences", prefs, null));
  // A change after a save is not saved yet.
  useEffect(() => setSaved(false), [prefs]);
  const onSubmit = async (event: Event) => {
    if (await form.submit(event)) {
      setSaved(true);
    }
  };
  const channel = (key: "push" | "whatsapp" | "email") => (
    <div class="profil-check">
      <input
        id={`profil-${key}`}
        type="checkbox"
        checked={prefs[key]}
        onChange={(e) => setPrefs({ ...prefs, [key]: (e.currentTarget as HTMLInputElement).checked })}
      />
      <label for={`profil-${key}`}>{t(`profil.channel.${key}` as MessageKey)}</label>
    </div>
  );
  const time = (key: "start" | "end") => (
    <div class="field">
      <label for={`profil-quiet-${key}`}>{t(`profil.quiet.${key}` as MessageKey)}</label>
      <input
        id={`profil-quiet-${key}`}
        type="time"
        required
        value={prefs.quietHours[key]}
        onInput={(e) =>
          setPrefs({
            ...prefs,
            quietHours: { ...prefs.quietHours, [key]: (e.currentTarget as HTMLInputElement).value },
          })
        }
      />
    </div>
  );
  return (
    <form onSubmit={onSubmit}>
      <fieldset>
        <legend>{t("profil.channels")}</legend>
        {channel("push")}
        {channel("whatsapp")}
        {channel("email")}
      </fieldset>
      <fieldset>
        <legend>{t("profil.quiet")}</legend>
        <div class="profil-house">
          {time("start")}
          {time("end")}
        </div>
      </fieldset>
      <FormError error={form.error} />
      {saved && (
        <p class="profil-saved" role="status">
          {t("profil.notificationsSaved")}
        </p>
      )}
      <Submit busy={form.busy}>{t("profil.notificationsSave")}</Submit>
    </form>
  );
}

/** A moved-out family's debt where the caller is in the grace period (GET /api/user/tanggungan). */
interface GraceDebts {
  items: {
    tenant: { slug: string; name: string };
    graceUntil: string;
    owed: number;
    bills: { id: string }[];
  }[];
}

/** Downloading everything held about me (the right of access), from this card or the move-out notice. */
function useDataDownload() {
  return useSubmit(async () => {
    const blob = await api.blob("/api/user/data-export");
    saveBlob(blob, "warga-data-saya.json");
    return true;
  });
}

/**
 * Issue 45: after a family moves out, its members keep a grace period in which they can still pay what
 * the family owes there (one checkout for all of it) and download their data. Shown only to them; the
 * screen stays as it is for everyone else, and when the list cannot be read.
 */
function MovedOut() {
  const debts = useResource(() => api.read<GraceDebts>("/api/user/tanggungan"));
  if (debts.state !== "ready") {
    return null;
  }
  return (
    <>
      {debts.data.data.items.map((debt) => (
        <MovedOutNotice key={debt.tenant.slug} debt={debt} />
      ))}
    </>
  );
}

function MovedOutNotice({ debt }: { debt: GraceDebts["items"][number] }) {
  const download = useDataDownload();
  const pay = useSubmit(async (key) => {
    const order = await api.post<{ paymentUrl: string }>(
      "/api/user/tanggungan/bayar",
      { tenant: debt.tenant.slug, billIds: debt.bills.map((b) => b.id) },
      { idempotencyKey: key },
    );
    gateway.open(order.paymentUrl);
    return true;
  });
  return (
    <article class="card profil-moved-out" aria-labelledby={`profil-moved-${debt.tenant.slug}`}>
      <h2 id={`profil-moved-${debt.tenant.slug}`}>
        {debt.owed > 0
          ? t("profil.movedOut", { community: debt.tenant.name, amount: money(debt.owed) })
          : t("profil.movedOutClear", { community: debt.tenant.name })}
      </h2>
      <p class="muted">{t("profil.movedOutUntil", { date: date(debt.graceUntil) })}</p>
      <FormError error={pay.error ?? download.error} />
      {debt.owed > 0 && (
        <button
          type="button"
          onClick={() => pay.submit()}
          disabled={pay.busy}
          aria-busy={pay.busy ? "true" : undefined}
        >
          {pay.busy ? t("common.loading") : t("profil.movedOutPay", { amount: money(debt.owed) })}
        </button>
      )}
      <button
        type="button"
        onClick={() => download.submit()}
        disabled={download.busy}
        aria-busy={download.busy ? "true" : undefined}
      >
        {download.busy ? t("common.loading") : t("profil.exportButton")}
      </button>
    </article>
  );
}

function DataExport() {
  const download = useDataDownload();
  return (
    <article class="card" aria-labelledby="profil-export-title">
      <h2 id="profil-export-title">{t("profil.export")}</h2>
      <p>{t("profil.exportIntro")}</p>
      <FormError error={download.error} />
      <button
        type="button"
        onClick={() => download.submit()}
        disabled={download.busy}
        aria-busy={download.busy ? "true" : undefined}
      >
        {download.busy ? t("common.loading") : t("profil.exportButton")}
      </button>
    </article>
  );
}

/**
 * Ends every sign-in of the account (a lost phone): the others by the API's "everywhere else", then this
 * one by the ordinary sign-out, which also clears this browser's cookie. Asks once more before doing it.
 */
function SignOutEverywhere() {
  const { route } = useLocation();
  const [asking, setAsking] = useState(false);
  const out = useSubmit(async (key) => {
    await api.post<{ ended: number }>("/api/auth/logout/others", undefined, { idempotencyKey: key });
    return true;
  });
  const confirm = async () => {
    if (await out.submit()) {
      await signOut().catch(() => undefined);
      route("/login");
    }
  };
  return (
    <article class="card" aria-labelledby="profil-out-title">
      <h2 id="profil-out-title">{t("profil.signOutAll")}</h2>
      <p>{t("profil.signOutAllIntro")}</p>
      <FormError error={out.error} />
      {asking ? (
        <div class="profil-confirm">
          <p>{t("profil.signOutAllSure")}</p>
          <button type="button" class="danger" onClick={confirm} disabled={out.busy}>
            {out.busy ? t("common.sending") : t("profil.signOutAllYes")}
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            {t("profil.cancel")}
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => setAsking(true)}>
          {t("profil.signOutAll")}
        </button>
      )}
    </article>
  );
}
