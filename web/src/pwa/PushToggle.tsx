import { useEffect, useId, useState } from "preact/hooks";
import { t, useLanguage } from "../i18n";
import { FormError, useSubmit } from "../ui/forms";
import { type PushState, pushState, turnOff, turnOn } from "./push";

/**
 * "Notifikasi di perangkat ini": the switch for Web Push on this device, for the profile screen (and the
 * menu). Off where the browser cannot, said so; blocked where the person refused, with what to do.
 */
export function PushToggle() {
  useLanguage();
  const id = useId();
  const [state, setState] = useState<PushState | null>(null);
  useEffect(() => {
    let live = true;
    pushState().then(
      (s) => live && setState(s),
      () => live && setState("unsupported"),
    );
    return () => {
      live = false;
    };
  }, []);
  const toggle = useSubmit(async (key) => setState(state === "on" ? await turnOff() : await turnOn(key)));
  // Nothing until known (placed last on its screen, so nothing moves when it appears).
  if (state === null || state === "unavailable") {
    return null;
  }
  const usable = state === "on" || state === "off";
  return (
    <div class="field">
      <label class="push-toggle" for={id}>
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={state === "on"}
          aria-checked={state === "on"}
          disabled={!usable || toggle.busy}
          aria-describedby={`${id}-hint`}
          onChange={() => void toggle.submit()}
        />
        {t("pwa.push")}
      </label>
      <p id={`${id}-hint`} class="muted">
        {state === "unsupported"
          ? t("pwa.pushUnsupported")
          : state === "blocked"
            ? t("pwa.pushBlocked")
            : t("pwa.pushHint")}
      </p>
      <FormError error={toggle.error} />
    </div>
  );
}
