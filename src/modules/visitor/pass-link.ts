import QRCode from "qrcode-svg";
import type { PlatformCtx } from "../../core/context";
import { rowById } from "../../core/db/rows";
import type { Config } from "../../core/env";
import { DomainError } from "../../core/errors";
import { publicTenantCtx } from "../../core/tenancy/contexts";
import { passCode, readPass } from "./pass";
import { visitors } from "./tables";

/**
 * The guest's pass link (issue 42): the approval email's "Kode QR" opens `/tamu/<pass>`, a page of the
 * API (src/pages/guest-pass.ts) until the web app takes the path over. A pass link is shared with the
 * guest (on WhatsApp, say), so the link is the signed pass itself, never the request's id: it cannot be
 * guessed, it names its community, and it is exactly what the gate scans. The route declares it a
 * secret URL part (ADR 0013): kept out of the logs, answered `no-store`.
 */
export function guestPassUrl(config: Pick<Config, "APP_URL">, pass: string): string {
  return `${config.APP_URL.replace(/\/$/, "")}/tamu/${encodeURIComponent(pass)}`;
}

/** Where a pass stands for whoever opens it: valid (shown with its QR), used, expired or declined. */
export type PassState = "valid" | "used" | "expired" | "declined";

export interface GuestPass {
  state: PassState;
  guestName: string;
  visitAt: string;
  tenantName: string;
  validFrom: string;
  validUntil: string;
  /** The QR the gate scans, only while the pass is valid. */
  qrSvg: string | null;
  /** The pass's short code to tell the guard when the QR will not scan, only while the pass is valid. */
  code: string | null;
}

/**
 * What the pass page shows; null for anything that is not one of our passes, or whose request the
 * community no longer holds. The community passes the guard's checks for the `tamu` flag: a closed one
 * is 410, a suspended one or one that switched the guest book off 403 (the page says it is unavailable).
 * Of the request it shows the guest's name, the visit's time and the community: not the resident who
 * registered it, the purpose, the plate or the identity.
 */
export async function guestPass({
  ctx,
  pass,
}: {
  ctx: PlatformCtx;
  pass: string;
}): Promise<GuestPass | null> {
  if (pass.length > 2000) {
    return null;
  }
  const claims = await readPass(ctx.config, pass);
  if (!claims) {
    return null;
  }
  let tenantCtx: Awaited<ReturnType<typeof publicTenantCtx>>;
  try {
    tenantCtx = await publicTenantCtx(ctx, claims.tenant, { flag: "tamu" });
  } catch (error) {
    if (error instanceof DomainError && error.code === "tenant_not_found") {
      return null;
    }
    throw error;
  }
  const row = await rowById(tenantCtx.db, visitors, claims.visitorId);
  if (!row || row.status === "menunggu") {
    return null;
  }
  const now = ctx.now();
  const state: PassState =
    row.status === "ditolak"
      ? "declined"
      : row.checkedInAt
        ? "used"
        : now.getTime() > claims.validUntil.getTime()
          ? "expired"
          : "valid";
  return {
    state,
    guestName: row.guestName,
    visitAt: row.visitAt,
    tenantName: tenantCtx.tenant.name,
    validFrom: claims.validFrom.toISOString(),
    validUntil: claims.validUntil.toISOString(),
    qrSvg: state === "valid" ? inlineQr(pass) : null,
    code: state === "valid" ? await passCode(ctx.config, pass) : null,
  };
}

/** The pass as an SVG to put inside the page (the XML declaration that opens a standalone file dropped). */
function inlineQr(pass: string): string {
  const svg = new QRCode({ content: pass, ecl: "M", join: true, container: "svg-viewbox", padding: 2 }).svg();
  return svg.slice(svg.indexOf("<svg"));
}
