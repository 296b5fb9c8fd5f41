import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { type MessageKey, t } from "../../i18n";
import { Field, Select } from "../../ui/forms";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { ListingCard } from "./Card";
import { CATEGORIES, type Listing } from "./types";

/** `/pasar`: active listings from the neighbourhood, searched and filtered by category. */
export function Browse() {
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  const [category, setCategory] = useState("");
  const listings = usePaged(
    (cursor) =>
      api.get<Page<Listing>>("/api/pasar/listings", {
        query: { limit: 20, cursor, q: q || undefined, category: category || undefined },
      }),
    [q, category],
  );
  const search = (event: Event) => {
    event.preventDefault();
    setQ(typed.trim());
  };
  return (
    <section aria-labelledby="pasar-title">
      <h1 id="pasar-title">{t("pasar.title")}</h1>
      <ul class="pasar-actions">
        <li>
          <a class="button primary" href="/pasar/baru">
            {t("pasar.sell")}
          </a>
        </li>
        <li>
          <a class="button" href="/pasar/saya">
            {t("pasar.mine")}
          </a>
        </li>
      </ul>
      <form class="pasar-search" onSubmit={search}>
        <Field label={t("pasar.search")} name="q" value={typed} onInput={setTyped} />
        <Select
          label={t("pasar.category")}
          name="category"
          value={category}
          onInput={setCategory}
          options={[
            { value: "", label: t("pasar.allCategories") },
            ...CATEGORIES.map((c) => ({ value: c, label: t(`pasar.category.${c}` as MessageKey) })),
          ]}
        />
        <button type="submit">{t("pasar.searchButton")}</button>
      </form>
      <ShowPaged paged={listings} empty={t("pasar.none")} lines={4}>
        {(items) => (
          <ul class="pasar-grid" aria-labelledby="pasar-title">
            {items.map((l) => (
              <ListingCard key={l.id} listing={l} />
            ))}
          </ul>
        )}
      </ShowPaged>
    </section>
  );
}
