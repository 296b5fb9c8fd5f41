import { useEffect, useMemo } from "preact/hooks";
import { t } from "../i18n";

/**
 * Choosing photos on a phone: "take a photo" opens the camera (`capture`), "choose from gallery" the
 * phone's pictures (an input with `capture` offers the camera only). Each chosen photo is previewed
 * with a button to take it out again. The files stay in the form's state until it is sent, so a failed
 * send keeps them. JPEG, PNG and WebP only: what `POST /api/files` accepts.
 */
export function PhotoPicker(props: {
  legend: string;
  files: File[];
  onChange: (files: File[]) => void;
  max?: number;
  error?: string;
}) {
  const max = props.max ?? 1;
  const previews = useMemo(() => props.files.map((f) => URL.createObjectURL(f)), [props.files]);
  useEffect(
    () => () => {
      for (const u of previews) {
        URL.revokeObjectURL(u);
      }
    },
    [previews],
  );
  const add = (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const chosen = Array.from(input.files ?? []);
    props.onChange(max === 1 ? chosen.slice(0, 1) : [...props.files, ...chosen].slice(0, max));
    // The same photo may be chosen again after it was taken out.
    input.value = "";
  };
  const room = props.files.length < max;
  return (
    <fieldset class="field photo-picker" aria-invalid={props.error ? "true" : undefined}>
      <legend>{props.legend}</legend>
      {room && (
        <div class="photo-buttons">
          <label class="button">
            {t("photo.camera")}
            <input
              class="sr-only"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              capture="environment"
              onChange={add}
            />
          </label>
          <label class="button">
            {t("photo.gallery")}
            <input
              class="sr-only"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              multiple={max > 1}
              onChange={add}
            />
          </label>
        </div>
      )}
      {max > 1 && <p class="muted">{t("photo.count", { n: props.files.length, max })}</p>}
      {props.files.length > 0 && (
        <ul class="photo-previews">
          {props.files.map((file, i) => (
            <li key={previews[i]}>
              <img class="photo" src={previews[i]} alt={t("photo.preview", { n: i + 1 })} />
              <button
                type="button"
                onClick={() => props.onChange(props.files.filter((_, j) => j !== i))}
                aria-label={t("photo.remove", { name: file.name })}
              >
                {t("photo.removeShort")}
              </button>
            </li>
          ))}
        </ul>
      )}
      {props.error && <p class="field-error">{props.error}</p>}
    </fieldset>
  );
}
