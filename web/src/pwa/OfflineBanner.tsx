import { dateTime } from "../format";
import { t, useLanguage } from "../i18n";
import { useOffline } from "./offline";

/**
 * Without a network the screens show what they showed last (the service worker kept it): said here, with
 * when it was seen. The live region is always there, so filling it is announced and nothing else moves.
 */
export function OfflineBanner() {
  useLanguage();
  const { offline, since } = useOffline();
  return (
    <div class="offline" role="status" aria-live="polite">
      {offline && <p>{since ? t("pwa.offlineSince", { time: dateTime(since) }) : t("app.offline")}</p>}
    </div>
  );
}
