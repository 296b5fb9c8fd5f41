import { useEffect, useState } from "preact/hooks";
import { api } from "../../api/client";
import { dateTime } from "../../format";
import { t, useLanguage } from "../../i18n";
import { useSession } from "../../session";
import { Failed, Loading, Show, useResource } from "../../ui/states";
import { stageKey, stageOf, type Visitor } from "./visitor";

/** `/tamu?id=<id>`: one guest, where the request stands and, once approved, the pass to show or share. */
export function PassView({ id }: { id: string }) {
  useLanguage();
  const visitor = useResource(() => api.get<Visitor>(`/api/visitor/${encodeURIComponent(id)}`), [id]);
  return (
    <section class="narrow" aria-labelledby="tamu-guest-title">
      <Show resource={visitor} lines={8}>
        {(v) => <Guest visitor={v} />}
      </Show>
      <p>
        <a href="/tamu">{t("tamu.backToList")}</a>
      </p>
    </section>
  );
}

function Guest({ visitor: v }: { visitor: Visitor }) {
  const stage = stageOf(v);
  const usable = v.status === "disetujui" && !v.checkedInAt && v.pass;
  return (
    <>
      <h1 id="tamu-guest-title">{v.guestName}</h1>
      <p>
        <span class={`badge tamu-${stage}`}>{t(stageKey(stage))}</span>
      </p>
      {stage === "menunggu" && <p class="muted">{t("tamu.waitingNote")}</p>}
      {usable && v.pass && <Pass visitor={v} pass={v.pass} />}
      <dl class="card tamu-facts">
        <dt>{t("tamu.field.visitAt")}</dt>
        <dd>{dateTime(v.visitAt)}</dd>
        <dt>{t("tamu.field.purpose")}</dt>
        <dd>{v.purpose}</dd>
        {v.vehiclePlate && (
          <>
            <dt>{t("tamu.field.vehiclePlate")}</dt>
            <dd>{v.vehiclePlate}</dd>
          </>
        )}
        {v.identity && (
          <>
            <dt>{t("tamu.field.identity")}</dt>
            <dd>{v.identity}</dd>
          </>
        )}
        {v.note && (
          <>
            <dt>{t("tamu.note")}</dt>
            <dd>{v.note}</dd>
          </>
        )}
        {v.checkedInAt && (
          <>
            <dt>{t("tamu.checkedInAt")}</dt>
            <dd>{dateTime(v.checkedInAt)}</dd>
          </>
        )}
        {v.checkedOutAt && (
          <>
            <dt>{t("tamu.checkedOutAt")}</dt>
            <dd>{dateTime(v.checkedOutAt)}</dd>
          </>
        )}
      </dl>
    </>
  );
}

/**
 * The pass: its QR big enough to scan from a phone held up at the gate (the API draws it: GET
 * /api/visitor/:id/qr, the same SVG the approval email links to), its validity, and the pass page's link
 * for the guest, by WhatsApp (a plain link: it works without script) or the phone's own share sheet.
 */
function Pass({ visitor: v, pass }: { visitor: Visitor; pass: string }) {
  const session = useSession();
  const community = session.status === "signedIn" ? (session.user.tenant?.name ?? "") : "";
  const link = `${location.origin}/tamu/${encodeURIComponent(pass)}`;
  const text = t("tamu.shareText", { guest: v.guestName, community, time: dateTime(v.visitAt), link });
  const canShare = typeof navigator !== "undefined" && "share" in navigator;
  return (
    <article class="card tamu-pass" aria-labelledby="tamu-pass-title">
      <h2 id="tamu-pass-title">{t("tamu.pass.title")}</h2>
      <QrImage id={v.id} label={t("tamu.pass.qrLabel", { guest: v.guestName })} />
      {v.passCode && (
        <p class="tamu-code">
          {t("tamu.pass.code")} <strong>{v.passCode}</strong>
        </p>
      )}
      {v.passValidFrom && v.passValidUntil && (
        <p class="muted">
          {t("tamu.pass.valid", { from: dateTime(v.passValidFrom), until: dateTime(v.passValidUntil) })}
        </p>
      )}
      <p>{t("tamu.pass.shareIntro")}</p>
      <a
        class="button primary"
        href={`https://wa.me/?text=${encodeURIComponent(text)}`}
        target="_blank"
        rel="noopener noreferrer"
      >
        {t("tamu.pass.whatsapp")}
      </a>
      {canShare && (
        <button
          type="button"
          class="tamu-share"
          onClick={() =>
            navigator.share({ title: t("tamu.pass.title"), text, url: link }).catch(() => undefined)
          }
        >
          {t("tamu.pass.share")}
        </button>
      )}
    </article>
  );
}

/** The API's SVG as an image (an object URL, so the bearer token went with the request, not in the URL). */
function QrImage({ id, label }: { id: string; label: string }) {
  const [tick, setTick] = useState(0);
  const [state, setState] = useState<{ url?: string; error?: unknown }>({});
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    setState({});
    api.blob(`/api/visitor/${encodeURIComponent(id)}/qr`).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        if (live) {
          setState({ url });
        }
      },
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
      if (url) {
        URL.revokeObjectURL(url);
      }
    };
  }, [id, tick]);
  if (state.error) {
    return <Failed error={state.error} retry={() => setTick((n) => n + 1)} />;
  }
  return (
    <div class="tamu-qr">
      {state.url ? <img src={state.url} alt={label} width={320} height={320} /> : <Loading lines={1} />}
    </div>
  );
}
