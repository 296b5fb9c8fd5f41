import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../../i18n";
import { drawScaled, qrDecoder } from "./scanner";

/** How often a frame is read: often enough to feel instant, rarely enough for a low-end phone. */
const FRAME_MS = 200;

/**
 * The live camera (the back one where there are two): frames drawn into a canvas and read until a QR
 * turns up; then the camera is stopped and the code handed on. A refused or missing camera says so and
 * leaves the photo and the typed code to use.
 */
export function Camera({ onCode, onClose }: { onCode: (qr: string) => void; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let stream: MediaStream | undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = async () => {
      stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: "environment" },
        audio: false,
      });
      const v = video.current;
      if (stopped || !v) {
        return;
      }
      v.srcObject = stream;
      await v.play();
      const { decode } = await qrDecoder();
      const canvas = document.createElement("canvas");
      const frame = async () => {
        if (stopped) {
          return;
        }
        if (drawScaled(canvas, v, v.videoWidth, v.videoHeight)) {
          const qr = await decode(canvas).catch(() => null);
          if (qr && !stopped) {
            onCode(qr);
            return;
          }
        }
        timer = setTimeout(frame, FRAME_MS);
      };
      await frame();
    };
    start().catch(() => !stopped && setFailed(true));
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) {
        track.stop();
      }
    };
  }, []);
  return (
    <div class="satpam-camera">
      {failed ? (
        <p class="alert" role="alert">
          {t("satpam.cameraFailed")}
        </p>
      ) : (
        // The viewfinder is for the eye; what it reads is announced in the result above.
        <video ref={video} muted playsInline aria-label={t("satpam.viewfinder")} />
      )}
      <button type="button" class="satpam-big" onClick={onClose}>
        {t("satpam.cameraClose")}
      </button>
    </div>
  );
}
