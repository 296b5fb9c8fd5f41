import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { date } from "../../format";
import { type MessageKey, t } from "../../i18n";
import { useSession } from "../../session";
import { AuthImage } from "../../ui/AuthImage";
import { FormError, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { type Listing, priceText } from "./types";

/** `/pasar/:id`: the listing with its photos and the seller's WhatsApp; the seller's own controls on theirs. */
export function ListingDetail({ params }: { params: { id: string } }) {
  const listing = useResource(() => api.read<Listing>(`/api/pasar/listings/${params.id}`), [params.id]);
  return (
    <section aria-labelledby="pasar-detail-title">
      <p>
        <a href="/pasar">{t("pasar.back")}</a>
      </p>
      <Show resource={listing} lines={6}>
        {(answer) => (
          <ListingView
            listing={answer.data}
            etag={answer.etag}
            reload={listing.state === "ready" ? listing.reload : () => undefined}
          />
        )}
      </Show>
    </section>
  );
}

function ListingView({
  listing,
  etag,
  reload,
}: {
  listing: Listing;
  etag: string | null;
  reload: () => void;
}) {
  const session = useSession();
  const mine = session.status === "signedIn" && session.user.id === listing.sellerId;
  return (
    <>
      <h1 id="pasar-detail-title">{listing.title}</h1>
      <p class="pasar-price-big">{priceText(listing.price)}</p>
      {listing.photos.length > 0 && (
        <ul class="pasar-photos">
          {listing.photos.map((p, i) => (
            <li key={p.id}>
              <AuthImage
                src={p.url}
                width={4}
                height={3}
                alt={t("pasar.photoOf", { title: listing.title, n: i + 1 })}
                class="photo-wide"
              />
            </li>
          ))}
        </ul>
      )}
      <div class="card">
        <p class="prewrap">{listing.description}</p>
        <p class="muted">
          {t(`pasar.category.${listing.category}` as MessageKey)}
          {listing.condition && ` · ${t(`pasar.condition.${listing.condition}` as MessageKey)}`} ·{" "}
          {date(listing.createdAt)}
        </p>
        {listing.sellerName && <p>{t("pasar.seller", { name: listing.sellerName })}</p>}
        {listing.status !== "aktif" && (
          <p>
            <span class={`badge badge-${listing.status}`}>
              {t(`pasar.status.${listing.status}` as MessageKey)}
            </span>
          </p>
        )}
        {listing.moderation && mine && (
          <p class="alert">{t("pasar.hiddenBecause", { reason: listing.moderation.reason })}</p>
        )}
      </div>
      {listing.whatsappUrl && !mine && (
        <a class="button primary" href={listing.whatsappUrl} target="_blank" rel="noopener noreferrer">
          {t("pasar.whatsapp")}
        </a>
      )}
      {mine && <SellerControls listing={listing} etag={etag} reload={reload} />}
    </>
  );
}

/** The seller's own: edit, sold ⇄ back on sale (an edit with If-Match), and removing it after asking once. */
function SellerControls({
  listing,
  etag,
  reload,
}: {
  listing: Listing;
  etag: string | null;
  reload: () => void;
}) {
  const { route } = useLocation();
  const [confirming, setConfirming] = useState(false);
  const toggle = useSubmit(() =>
    api.put(
      `/api/pasar/listings/${listing.id}`,
      { status: listing.status === "aktif" ? "terjual" : "aktif" },
      etag,
    ),
  );
  const remove = useSubmit(() => api.del(`/api/pasar/listings/${listing.id}`, etag));
  if (listing.status === "disembunyikan") {
    return null;
  }
  return (
    <div class="pasar-controls">
      <a class="button" href={`/pasar/${listing.id}/ubah`}>
        {t("pasar.edit")}
      </a>
      <button
        type="button"
        disabled={toggle.busy}
        onClick={async () => {
          if (await toggle.submit()) {
            reload();
          }
        }}
      >
        {listing.status === "aktif" ? t("pasar.markSold") : t("pasar.markActive")}
      </button>
      <FormError error={toggle.error} />
      {confirming ? (
        <div class="card">
          <p>{t("pasar.removeAsk")}</p>
          <button
            type="button"
            class="danger"
            disabled={remove.busy}
            onClick={async () => {
              if (await remove.submit()) {
                route("/pasar/saya");
              }
            }}
          >
            {t("pasar.removeYes")}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t("pasar.removeNo")}
          </button>
          <FormError error={remove.error} />
        </div>
      ) : (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          {t("pasar.remove")}
        </button>
      )}
    </div>
  );
}
