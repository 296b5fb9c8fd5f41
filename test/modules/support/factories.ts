import { type FactoryTable, made, unknownToken, type World } from "../../helpers/factories";
import { callJson, type Member } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { PNG, upload } from "./helpers";

const png = (name = "bukti.png") => {
  const form = new FormData();
  form.set("file", new File([PNG], name, { type: "image/png" }));
  return form;
};

const lastSegment = (url: string) => new URL(url).pathname.split("/").at(-1) ?? "";

/**
 * A ticket, with its reply token taken from the submitter's confirmation email ([TKT:token] in the
 * subject): where the token travels, and the only place once the API stops showing it.
 */
async function openTicket(admin: Member, body: Record<string, unknown>) {
  const created = await made(
    callJson<{ id: string; number: number }>("/api/support-tickets", {
      token: admin.token,
      body: { category: "teknis", ...body },
    }),
    "ticket",
  );
  const sent = await queuedMessages({ recipient: admin.email, template: "SUPPORT_TICKET_CREATED" });
  const subject = sent.find((m) => m.subject?.includes(`#${created.number}`))?.subject ?? "";
  const replyToken = /\[TKT:([^\]]+)\]/.exec(subject)?.[1];
  if (!replyToken) {
    throw new Error(`no [TKT:…] confirmation for ticket #${created.number}`);
  }
  return { id: created.id, reply_token: replyToken };
}

/** A's ticket, with an evidence image uploaded by A's admin and a reply image uploaded by its token. */
const ticket = (w: World) =>
  w.once("ticket", async () => {
    const evidence = await upload("/api/uploads/resident-image?kind=support-ticket", {
      token: w.a.as.admin.token,
      bytes: PNG,
      name: "bukti.png",
      type: "image/png",
    });
    if (evidence.status !== 201) {
      throw new Error(`evidence upload: ${evidence.status} ${JSON.stringify(evidence.body)}`);
    }
    const url = String(evidence.body.url);
    const created = await openTicket(w.a.as.admin, {
      title: "Ekspor gagal",
      detail: "Tombol diam saja",
      attachment_url: url,
    });
    const reply = await upload(`/api/public/support-tickets/${created.reply_token}/uploads`, {
      bytes: PNG,
      name: "balasan.png",
      type: "image/png",
    });
    if (reply.status !== 201) {
      throw new Error(`public upload: ${reply.status} ${JSON.stringify(reply.body)}`);
    }
    return {
      ...created,
      evidenceFileId: lastSegment(url),
      publicFileId: lastSegment(String(reply.body.url)),
    };
  });

/** Another tenant's ticket: its token must not open A's files. */
const ticketOfB = (w: World) =>
  w.once("ticket of B", () => openTicket(w.b.as.admin, { title: "Tiket B", detail: "Milik tenant lain" }));

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/support-tickets/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await ticket(w)).id } }),
  },
  "/api/support-tickets/:id/messages": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await ticket(w)).id }, body: { post: { message: "Ada kabar?" } } }),
  },
  "/api/support-files/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await ticket(w)).evidenceFileId }, ownerRole: "admin" }),
  },
  "/api/platform/support-tickets/:id": {
    kind: "platform",
    make: async (w) => ({ params: { id: (await ticket(w)).id }, body: { patch: { status: "diproses" } } }),
  },
  // --- login-free routes ----------------------------------------------------------------------------
  "/api/public/support-tickets/:reply_token": {
    kind: "public",
    make: async (w) => ({
      params: { reply_token: (await ticket(w)).reply_token },
      foreign: { reply_token: unknownToken() },
    }),
  },
  "/api/public/support-tickets/:reply_token/messages": {
    kind: "public",
    make: async (w) => ({
      params: { reply_token: (await ticket(w)).reply_token },
      foreign: { reply_token: unknownToken() },
      body: { post: { message: "Masih belum bisa" } },
    }),
  },
  "/api/public/support-tickets/:reply_token/uploads": {
    kind: "public",
    make: async (w) => ({
      params: { reply_token: (await ticket(w)).reply_token },
      foreign: { reply_token: unknownToken() },
      body: { post: png() },
    }),
  },
  "/api/public/support-tickets/:reply_token/files/:id": {
    kind: "public",
    make: async (w) => {
      const own = await ticket(w);
      return {
        params: { reply_token: own.reply_token, id: own.publicFileId },
        foreign: { reply_token: (await ticketOfB(w)).reply_token, id: own.publicFileId },
      };
    },
  },
  "/support/reply/:reply_token": {
    kind: "public",
    make: async (w) => {
      const form = new FormData();
      form.set("message", "Balasan dari halaman");
      return {
        params: { reply_token: (await ticket(w)).reply_token },
        foreign: { reply_token: unknownToken() },
        body: { post: form },
      };
    },
  },
};
