import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { useUploader } from "../../api/uploads";
import { type MessageKey, t } from "../../i18n";
import { Field, FormError, Select, Submit, TextArea, useSubmit } from "../../ui/forms";
import { PhotoPicker } from "../../ui/PhotoPicker";
import { CATEGORIES, type Complaint } from "./types";

/** `/aspirasi/pengaduan/baru`: a complaint to the staff, with a photo from the phone's camera or gallery. */
export function NewComplaint() {
  const { route } = useLocation();
  const [title, setTitle] = useState("");
  const [category, setCategory] = useState("");
  const [description, setDescription] = useState("");
  const [location, setLocation] = useState("");
  const [photos, setPhotos] = useState<File[]>([]);
  const upload = useUploader("pengaduan");
  const form = useSubmit(async (key) => {
    const photo = photos[0] ? (await upload(photos[0])).url : undefined;
    return api.post<Complaint>(
      "/api/pengaduan",
      {
        title: title.trim(),
        category,
        description: description.trim(),
        ...(location.trim() ? { location: location.trim() } : {}),
        ...(photo ? { photo } : {}),
      },
      { idempotencyKey: key },
    );
  });
  const onSubmit = async (event: Event) => {
    const complaint = await form.submit(event);
    if (complaint) {
      route(`/aspirasi/pengaduan/${complaint.id}`);
    }
  };
  return (
    <section aria-labelledby="complaint-title">
      <p>
        <a href="/aspirasi">{t("aspirasi.back")}</a>
      </p>
      <h1 id="complaint-title">{t("aspirasi.newComplaint")}</h1>
      <form class="card" onSubmit={onSubmit}>
        <Field
          label={t("aspirasi.complaintTitle")}
          name="title"
          value={title}
          onInput={setTitle}
          required
          minLength={3}
          error={form.fields.title}
        />
        <Select
          label={t("aspirasi.category")}
          name="category"
          value={category}
          onInput={setCategory}
          required
          error={form.fields.category}
          options={[
            { value: "", label: t("aspirasi.choose") },
            ...CATEGORIES.map((c) => ({ value: c, label: t(`aspirasi.category.${c}` as MessageKey) })),
          ]}
        />
        <TextArea
          label={t("aspirasi.description")}
          name="description"
          value={description}
          onInput={setDescription}
          required
          minLength={5}
          maxLength={2000}
          error={form.fields.description}
        />
        <Field
          label={t("aspirasi.location")}
          name="location"
          value={location}
          onInput={setLocation}
          error={form.fields.location}
        />
        <PhotoPicker
          legend={t("aspirasi.photo")}
          files={photos}
          onChange={setPhotos}
          error={form.fields.photo ?? form.fields.file}
        />
        <FormError error={form.error} />
        <Submit busy={form.busy}>{t("aspirasi.send")}</Submit>
      </form>
    </section>
  );
}
