import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { useUploader } from "../../api/uploads";
import { type MessageKey, t } from "../../i18n";
import { AuthImage } from "../../ui/AuthImage";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { PhotoPicker } from "../../ui/PhotoPicker";
import { Show, useResource } from "../../ui/states";
import { CATEGORIES, type Listing, MAX_PHOTOS } from "./types";

/** `/pasar/baru` and `/pasar/:id/ubah`: a listing with up to five photos; an edit is sent with If-Match. */
export function ListingForm({ params }: { params: { id?: string } }) {
  const id = params.id;
  const existing = useResource(
    () => (id ? api.read<Listing>(`/api/pasar/listings/${id}`) : Promise.resolve(null)),
    [id],
  );
  return (
    <section aria-labelledby="pasar-form-title">
      <p>
        <a href={id ? `/pasar/${id}` : "/pasar"}>{t("pasar.back")}</a>
      </p>
      <h1 id="pasar-form-title">{id ? t("pasar.editTitle") : t("pasar.sell")}</h1>
      <Show resource={existing} lines={6}>
        {(answer) => <Editor listing={answer?.data ?? null} etag={answer?.etag ?? null} />}
      </Show>
    </section>
  );
}

function Editor({ listing, etag }: { listing: Listing | null; etag: string | null }) {
  const { route } = useLocation();
  const [title, setTitle] = useState(listing?.title ?? "");
  const [description, setDescription] = useState(listing?.description ?? "");
  const [nego, setNego] = useState(listing?.price === "nego");
  const [price, setPrice] = useState(typeof listing?.price === "number" ? String(listing.price) : "");
  const [category, setCategory] = useState<string>(listing?.category ?? "");
  const [condition, setCondition] = useState<string>(listing?.condition ?? "");
  // Photos already on the listing (kept unless taken out) and new ones from the phone.
  const [kept, setKept] = useState(listing?.photos ?? []);
  const [files, setFiles] = useState<File[]>([]);
  const upload = useUploader("pasar");
  const form = useSubmit(async (key) => {
    const uploaded = [];
    for (const file of files) {
      uploaded.push(await upload(file));
    }
    const digits = price.replace(/[^\d]/g, "");
    const body = {
      title: title.trim(),
      description: description.trim(),
      price: nego ? "nego" : digits === "" ? price : Number(digits),
      category,
      condition: category === "jasa" || !condition ? null : condition,
      photoIds: [...kept.map((p) => p.id), ...uploaded.map((u) => u.id)],
    };
    return listing
      ? (await api.put<Listing>(`/api/pasar/listings/${listing.id}`, body, etag)).data
      : api.post<Listing>("/api/pasar/listings", body, { idempotencyKey: key });
  });
  const onSubmit = async (event: Event) => {
    const saved = await form.submit(event);
    if (saved) {
      route(`/pasar/${saved.id}`);
    }
  };
  return (
    <form class="card" onSubmit={onSubmit}>
      <Field
        label={t("pasar.listingTitle")}
        name="title"
        value={title}
        onInput={setTitle}
        required
        minLength={3}
        error={form.fields.title}
      />
      <TextArea
        label={t("pasar.description")}
        name="description"
        value={description}
        onInput={setDescription}
        required
        maxLength={4000}
        error={form.fields.description}
      />
      <Select
        label={t("pasar.category")}
        name="category"
        value={category}
        onInput={setCategory}
        required
        error={form.fields.category}
        options={[
          { value: "", label: t("pasar.choose") },
          ...CATEGORIES.map((c) => ({ value: c, label: t(`pasar.category.${c}` as MessageKey) })),
        ]}
      />
      {category !== "jasa" && (
        <Select
          label={t("pasar.conditionLabel")}
          name="condition"
          value={condition}
          onInput={setCondition}
          error={form.fields.condition}
          options={[
            { value: "", label: t("pasar.choose") },
            { value: "baru", label: t("pasar.condition.baru") },
            { value: "bekas", label: t("pasar.condition.bekas") },
          ]}
        />
      )}
      <label class="check">
        <input
          type="checkbox"
          checked={nego}
          onChange={(e) => setNego((e.currentTarget as HTMLInputElement).checked)}
        />
        {t("pasar.negoLabel")}
      </label>
      {!nego && (
        <Field
          label={t("pasar.price")}
          name="price"
          inputMode="numeric"
          value={price}
          onInput={setPrice}
          required
          error={form.fields.price}
        />
      )}
      {kept.length > 0 && (
        <ul class="photo-previews">
          {kept.map((p, i) => (
            <li key={p.id}>
              <AuthImage
                src={p.url}
                alt={t("photo.preview", { n: i + 1 })}
                width={1}
                height={1}
                class="photo-thumb"
              />
              <button
                type="button"
                onClick={() => setKept(kept.filter((k) => k.id !== p.id))}
                aria-label={t("photo.removeNth", { n: i + 1 })}
              >
                {t("photo.removeShort")}
              </button>
            </li>
          ))}
        </ul>
      )}
      <PhotoPicker
        legend={t("pasar.photos")}
        files={files}
        onChange={setFiles}
        max={MAX_PHOTOS - kept.length}
        error={form.fields.photoIds ?? form.fields.file}
      />
      <FormError error={form.error} />
      <Submit busy={form.busy}>{listing ? t("pasar.save") : t("pasar.publish")}</Submit>
    </form>
  );
}
