import { api } from "../../api/client";
import { t } from "../../i18n";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { ListingCard } from "./Card";
import type { Listing } from "./types";

/** `/pasar/saya`: the resident's own listings in every status (sold, hidden by the staff too). */
export function MyListings() {
  const listings = usePaged((cursor) =>
    api.get<Page<Listing>>("/api/pasar/mine", { query: { limit: 20, cursor } }),
  );
  return (
    <section aria-labelledby="pasar-mine-title">
      <p>
        <a href="/pasar">{t("pasar.back")}</a>
      </p>
      <h1 id="pasar-mine-title">{t("pasar.mine")}</h1>
      <a class="button primary" href="/pasar/baru">
        {t("pasar.sell")}
      </a>
      <ShowPaged paged={listings} empty={t("pasar.mineNone")} lines={4}>
        {(items) => (
          <ul class="pasar-grid" aria-labelledby="pasar-mine-title">
            {items.map((l) => (
              <ListingCard key={l.id} listing={l} showStatus />
            ))}
          </ul>
        )}
      </ShowPaged>
    </section>
  );
}
