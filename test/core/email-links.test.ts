import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/env";
import { joinUrl } from "../../src/modules/identity/invitations";
import { magicLinkUrl } from "../../src/modules/identity/oneTimeTokens";
import { resetPasswordUrl } from "../../src/modules/identity/passwordReset";
import { operatorTicketUrl, replyPageUrl } from "../../src/modules/support/store";
import { guestPassUrl } from "../../src/modules/visitor/pass-link";
import { defaultTemplates } from "../../workers/notify/src/templates/defaults";
import { renderTemplate } from "../../workers/notify/src/templates/render";
import { bindings, call, callJson, createTenant } from "../helpers/harness";
import { insertTicket } from "../modules/support/helpers";
import { GUEST_PAPERS } from "../modules/visitor/factories";

/**
 * Issue 42 item 3: every link in every email leads somewhere. Each template of the notification
 * service (its registry, iterated) is rendered with the links the API's own builders make for real
 * objects; every link into the API is followed to a 200 page, and every link into the web app (which
 * does not exist yet) must be one of `WEB_APP_PATHS`, and all of them must be found: when the web app
 * lands, those switch from being listed to being followed.
 */

/**
 * Links into the web app at CLIENT_URL (ARCHITECTURE, fourth wave). `/auth/callback` is also the web
 * app's, but only as the OAuth redirect's target, never in an email.
 */
const WEB_APP_PATHS = [
  "/auth/magic-link",
  "/join",
  "/login",
  "/platform/support-tickets/:id",
  "/reset-password",
].sort();

/** URL variables the API never fills with a link of ours, and why. */
const NOT_OURS: Record<string, string> = {
  paymentUrl: "the payment gateway's checkout page, as the gateway answered it (Midtrans, Xendit)",
  announcementUrl: "no API path sends ANNOUNCEMENT (content fan-out goes out as push and WhatsApp text)",
};

const isUrlVariable = (name: string) => /Url$/.test(name) && name !== "logoUrl";

/** A web app path with its ids shown as `:id`, to compare with `WEB_APP_PATHS`. */
const shape = (path: string) => path.replace(/\/[0-9A-HJKMNP-TV-Z]{26}(?=\/|$)/g, "/:id");

function linksIn(html: string, text: string): string[] {
  const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => (m[1] ?? "").replaceAll("&amp;", "&"));
  const plain = text.match(/https?:\/\/[^\s<>"')]+/g) ?? [];
  return [...new Set([...hrefs, ...plain])];
}

describe("links in emails", () => {
  it("every link of every template opens a page of the API, or is a listed web app path", async () => {
    const config = loadConfig(bindings);
    const appUrl = config.APP_URL.replace(/\/$/, "");
    const clientUrl = String(bindings.CLIENT_URL).replace(/\/$/, "");
    const env = { APP_URL: config.APP_URL, CLIENT_URL: String(bindings.CLIENT_URL) };

    // Real objects behind the links: a support ticket, an approved guest.
    const ticket = await insertTicket({ tenant: null, createdAt: new Date().toISOString() });
    const tenant = await createTenant();
    const warga = await tenant.member("warga", { unitId: "links-unit", whatsapp: "6281599900001" });
    const sek = await tenant.member("sekretaris");
    const visit = await callJson<{ id: string }>("/api/visitor", {
      token: warga.token,
      body: {
        guestName: "Tamu Tautan",
        purpose: "Bertamu",
        ...GUEST_PAPERS,
        visitAt: new Date(Date.now() + 1_800_000).toISOString(),
      },
    });
    const approved = await callJson<{ pass: string }>(`/api/visitor/${visit.body.id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "disetujui" },
    });
    expect(approved.status).toBe(200);
    const urlCtx = { config, env } as Parameters<typeof replyPageUrl>[0];

    /** Every link the API puts in each URL variable, from its own builders. */
    const LINKS: Record<string, string[]> = {
      resetUrl: [resetPasswordUrl(env, "tokenContohReset")],
      // WELCOME (an invitation: set a password, or sign in when the account has one) and MAGIC_LINK.
      loginUrl: [
        resetPasswordUrl(env, "tokenContohUndangan"),
        `${clientUrl}/login`,
        magicLinkUrl(env, "tokenContoh"),
      ],
      ticketUrl: [replyPageUrl(urlCtx, ticket.token), operatorTicketUrl(urlCtx, ticket.id)],
      visitUrl: [guestPassUrl(config, approved.body.pass)],
    };
    // Emails sent outside the templates (a raw email: the join link to an existing account).
    const RAW = [joinUrl(env, "tokenContohGabung")];

    const found = new Set<string>(RAW);
    for (const template of defaultTemplates) {
      const variables = template.variables.filter(isUrlVariable);
      for (const variable of variables) {
        expect(
          LINKS[variable] ?? NOT_OURS[variable],
          `${template.code}.${variable} has no link builder here`,
        ).toBeDefined();
      }
      const ours = variables.filter((v) => LINKS[v]);
      const rounds = Math.max(1, ...ours.map((v) => LINKS[v]?.length ?? 0));
      for (let i = 0; i < rounds; i++) {
        const data: Record<string, unknown> = {
          ...template.sampleData,
          brandName: "Warga",
          logoUrl: `${appUrl}/logo.png`,
        };
        for (const v of ours) {
          const options = LINKS[v] ?? [];
          data[v] = options[Math.min(i, options.length - 1)];
        }
        const rendered = renderTemplate(template, data);
        for (const link of linksIn(rendered.html, rendered.text)) {
          found.add(link);
        }
      }
    }

    const webApp = new Set<string>();
    const followed: string[] = [];
    for (const link of found) {
      if (!link.startsWith(appUrl) && !link.startsWith(clientUrl)) {
        continue;
      }
      const url = new URL(link);
      if (WEB_APP_PATHS.includes(shape(url.pathname))) {
        webApp.add(shape(url.pathname));
        continue;
      }
      expect(
        link.startsWith(appUrl),
        `${link} points into the web app but is not a listed web app path`,
      ).toBe(true);
      const res = await call(`${url.pathname}${url.search}`);
      expect(res.status, link).toBe(200);
      expect(res.headers.get("Content-Type"), link).toContain("text/html");
      await res.arrayBuffer();
      followed.push(url.pathname);
    }
    expect([...webApp].sort()).toEqual(WEB_APP_PATHS);
    // The pages the API serves for its emails: the ticket page and the guest pass (the reset form is the app's).
    expect(new Set(followed.map((p) => p.split("/")[1]))).toEqual(new Set(["support", "tamu"]));
  });
});
