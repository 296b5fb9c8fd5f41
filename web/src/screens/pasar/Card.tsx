import { type MessageKey, t } from "../../i18n";
import { AuthImage } from "../../ui/AuthImage";
import { type Listing, priceText } from "./types";

/** One listing in a grid: its first photo (or a plain tile), title, price; the whole card is the link. */
export function ListingCard({ listing, showStatus }: { listing: Listing; showStatus?: boolean }) {
  const photo = listing.photos[0];
  return (
    <li class="pasar-card">
      <a href={`/pasar/${listing.id}`}>
        {photo ? (
          <AuthImage src={photo.url} alt="" width={1} height={1} class="pasar-thumb" />
        ) : (
          <span class="pasar-thumb pasar-nophoto" aria-hidden="true">
            {t(`pasar.category.${listing.category}` as MessageKey)}
          </span>
        )}
        <span class="pasar-title">{listing.title}</span>
        <strong class="pasar-price">{priceText(listing.price)}</strong>
        {showStatus && listing.status !== "aktif" && (
          <span class={`badge badge-${listing.status}`}>
            {t(`pasar.status.${listing.status}` as MessageKey)}
          </span>
        )}
      </a>
    </li>
  );
}
