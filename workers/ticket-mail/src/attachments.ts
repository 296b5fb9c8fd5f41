import type { Attachment } from "postal-mime";

// Same limit as an image attached through the consoles (spec: 5 MB per image).
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export type StoredAttachment = {
  key: string;
  filename: string;
  contentType: string;
  size: number;
};

export type SkippedAttachment = { index: number; reason: "not_image" | "too_large" | "quoted_history" };

// The first extension of each type is the one given to files that lack a fitting one.
const EXTENSIONS: Record<string, string[]> = {
  "image/jpeg": ["jpg", "jpeg", "jpe", "jfif"],
  "image/png": ["png"],
  "image/gif": ["gif"],
  "image/webp": ["webp"],
};

/** Recognises an image by its first bytes: a declared type is only the sender's claim. */
export function sniffImageType(bytes: Uint8Array): string | null {
  const at = (i: number): number => bytes[i] ?? -1;
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) {
    return "image/jpeg";
  }
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => at(i) === b)) {
    return "image/png";
  }
  const head = ascii(bytes, 0, 6);
  if (head === "GIF87a" || head === "GIF89a") {
    return "image/gif";
  }
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") {
    return "image/webp";
  }
  return null;
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** A key-safe filename whose extension agrees with the sniffed type, whatever the sender wrote. */
export function safeFilename(name: string | null, index: number, contentType: string): string {
  const cleaned = (name ?? "")
    .split(/[\\/]/)
    .pop()
    ?.normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-");
  const match = /^(.*?)(?:\.([A-Za-z0-9]{1,5}))?$/.exec(cleaned ?? "");
  const stem = (match?.[1] ?? "").slice(0, 80).replace(/^[-.]+|[-.]+$/g, "");
  const given = match?.[2];
  const extension =
    given !== undefined && (EXTENSIONS[contentType] ?? []).includes(given.toLowerCase())
      ? given
      : (EXTENSIONS[contentType]?.[0] ?? "bin");
  return `${stem || `image-${index}`}.${extension}`;
}

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The folder of one message: a redelivery writes to the same keys instead of adding copies. */
export function messagePrefix(messageHash: string): string {
  return `support/inbound/${messageHash}/`;
}

function toBytes(content: Attachment["content"]): Uint8Array {
  if (typeof content === "string") {
    // Only happens with a non-default attachmentEncoding; parse.ts asks for arraybuffer.
    return new TextEncoder().encode(content);
  }
  return content instanceof Uint8Array ? content : new Uint8Array(content);
}

export type AttachmentSelection = {
  // Content-IDs the kept reply text shows and the whole HTML shows (see html-to-text.ts).
  keptCids: Set<string>;
  allCids: Set<string>;
};

export async function storeImages(input: {
  bucket: R2Bucket;
  attachments: Attachment[];
  messageId: string;
  replyToken: string;
  selection: AttachmentSelection;
}): Promise<{ stored: StoredAttachment[]; skipped: SkippedAttachment[] }> {
  const prefix = messagePrefix(await sha256Hex(input.messageId));
  const stored: StoredAttachment[] = [];
  const skipped: SkippedAttachment[] = [];
  for (const [index, attachment] of input.attachments.entries()) {
    const cid = attachment.contentId?.replace(/^<|>$/g, "").trim().toLowerCase();
    // Clients re-embed the images of the message they quote; those belong to the history.
    if (cid && input.selection.allCids.has(cid) && !input.selection.keptCids.has(cid)) {
      skipped.push({ index, reason: "quoted_history" });
      continue;
    }
    const bytes = toBytes(attachment.content);
    const contentType = sniffImageType(bytes);
    if (contentType === null) {
      skipped.push({ index, reason: "not_image" });
      continue;
    }
    if (bytes.byteLength > MAX_IMAGE_BYTES) {
      skipped.push({ index, reason: "too_large" });
      continue;
    }
    const filename = safeFilename(attachment.filename, index, contentType);
    const key = `${prefix}${index}-${filename}`;
    await input.bucket.put(key, bytes, {
      httpMetadata: { contentType },
      customMetadata: { messageId: input.messageId, replyToken: input.replyToken },
    });
    stored.push({ key, filename, contentType, size: bytes.byteLength });
  }
  return { stored, skipped };
}

export async function deleteStored(bucket: R2Bucket, stored: StoredAttachment[]): Promise<void> {
  if (stored.length > 0) {
    await bucket.delete(stored.map((s) => s.key));
  }
}
