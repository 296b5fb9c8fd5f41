/**
 * Reading a pass's QR from a picture: the browser's own BarcodeDetector where it has one (Chrome on
 * Android, Safari 17+), jsqr otherwise. jsqr is imported only when needed, so phones with the native
 * detector never download it and the gate screen's first chunk stays small.
 */

/** Reads the QR in what a canvas holds now; null when it holds none. */
export type Decoder = (canvas: HTMLCanvasElement) => Promise<string | null>;

interface DetectorLike {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
interface DetectorClass {
  new (options: { formats: string[] }): DetectorLike;
  getSupportedFormats?: () => Promise<string[]>;
}

/**
 * jsqr is CommonJS marked `__esModule`; the bundler's interop (Node's rule) hands over `module.exports`,
 * whose own `default` is the function, while the tests' mocks hand over the function itself.
 */
function unwrapDefault<F extends (...args: never[]) => unknown>(value: F | { default: F }): F {
  return typeof value === "function" ? value : value.default;
}

let chosen: Promise<{ kind: "native" | "jsqr"; decode: Decoder }> | undefined;

async function choose(): Promise<{ kind: "native" | "jsqr"; decode: Decoder }> {
  const Detector = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (Detector) {
    // Some builds define the class but read no QR (desktop Chrome on Linux answers an empty list).
    const formats = (await Detector.getSupportedFormats?.().catch(() => [])) ?? ["qr_code"];
    if (formats.includes("qr_code")) {
      const detector = new Detector({ formats: ["qr_code"] });
      return {
        kind: "native",
        decode: async (canvas) => (await detector.detect(canvas))[0]?.rawValue ?? null,
      };
    }
  }
  const jsQR = unwrapDefault((await import("jsqr")).default);
  return {
    kind: "jsqr",
    decode: async (canvas) => {
      const context = canvas.getContext("2d", { willReadFrequently: true });
      if (!context) {
        return null;
      }
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      return jsQR(image.data, image.width, image.height, { inversionAttempts: "attemptBoth" })?.data ?? null;
    },
  };
}

/** The decoder this browser uses, chosen once. */
export function qrDecoder(): Promise<{ kind: "native" | "jsqr"; decode: Decoder }> {
  chosen ??= choose().catch((error: unknown) => {
    chosen = undefined;
    throw error;
  });
  return chosen;
}

/** For tests: choose again (after changing what the browser offers). */
export function forgetDecoder(): void {
  chosen = undefined;
}

/** The largest side a picture is read at: a phone photo scaled down decodes faster and as well. */
const MAX_SIDE = 1024;
/**
 * The smallest side a photo is read at: a small picture of a dense pass (a few pixels per module) is
 * scaled up with smoothing first, which jsqr's binariser reads where it misses the original.
 */
const MIN_PHOTO_SIDE = 800;

/** Draws `source` (a video frame, a photo) on `canvas`, its longer side between `minSide` and MAX_SIDE. */
export function drawScaled(
  canvas: HTMLCanvasElement,
  source: CanvasImageSource,
  width: number,
  height: number,
  minSide = 0,
): boolean {
  const longer = Math.max(width, height);
  const scale = Math.min(MAX_SIDE / longer, Math.max(1, minSide / longer));
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context || width === 0 || height === 0) {
    return false;
  }
  context.imageSmoothingQuality = "high";
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return true;
}

/** The QR in a photo (the "scan from a picture" fallback where the live camera is refused). */
export async function decodePhoto(file: Blob): Promise<string | null> {
  const bitmap = await createImageBitmap(file);
  try {
    const canvas = document.createElement("canvas");
    if (!drawScaled(canvas, bitmap, bitmap.width, bitmap.height, MIN_PHOTO_SIDE)) {
      return null;
    }
    return (await qrDecoder()).decode(canvas);
  } finally {
    bitmap.close();
  }
}
