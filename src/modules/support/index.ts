import { type Access, ROLES, tenantAccess } from "../../core/http/access";
import type { SecretParts } from "../../core/http/secret";
import { defineModule } from "../../core/module";
import { SUPPORT_ERROR_CODES } from "./errors";
import { AppendInboundReply } from "./routes/appendInboundReply";
import { CreateTicket } from "./routes/createTicket";
import { GetSupportFile } from "./routes/getFile";
import { GetPlatformTicket } from "./routes/getPlatformTicket";
import { GetPublicFile } from "./routes/getPublicFile";
import { GetPublicTicket } from "./routes/getPublicTicket";
import { GetTicket } from "./routes/getTicket";
import { ListPlatformTickets } from "./routes/listPlatformTickets";
import { ListTicketCategories } from "./routes/listTicketCategories";
import { ListTickets } from "./routes/listTickets";
import { ReplyPublicTicket } from "./routes/replyPublicTicket";
import { ReplyToTicket } from "./routes/replyToTicket";
import { RespondToTicket } from "./routes/respondToTicket";
import { SubmitContact } from "./routes/submitContact";
import { SubmitSupportReplyPage } from "./routes/submitSupportReplyPage";
import { SupportReplyPage } from "./routes/supportReplyPage";
import { UploadPlatformImage } from "./routes/uploadPlatformImage";
import { UploadPublicImage } from "./routes/uploadPublicImage";
import { UploadTicketImage } from "./routes/uploadTicketImage";

/**
 * Tickets to the platform are the community staff's (spec: S on every ticket row and the evidence upload;
 * its "community staff (tenant admins)" names the staff console's users, and only its authentication
 * section narrows an S, which it does not do here; issue 42).
 */
const staff = tenantAccess(ROLES.STAFF);
const operator = { scope: "platform" } as const satisfies Access;
const pub = { scope: "public" } as const satisfies Access;
/** The reply token in these URLs is the ticket's only credential. */
const replyToken = { params: ["reply_token"] } as const satisfies SecretParts;

export const supportModule = defineModule({
  name: "support",
  errorCodes: SUPPORT_ERROR_CODES,
  routes: [
    { method: "post", path: "/api/uploads/resident-image", endpoint: UploadTicketImage, access: staff },
    { method: "post", path: "/api/support-tickets", endpoint: CreateTicket, access: staff },
    { method: "get", path: "/api/support-tickets", endpoint: ListTickets, access: staff },
    // Before `/:id`, so `categories` is never read as an id. The picker's list: the same for everyone.
    { method: "get", path: "/api/support-tickets/categories", endpoint: ListTicketCategories, access: pub },
    { method: "get", path: "/api/support-tickets/:id", endpoint: GetTicket, access: staff },
    { method: "post", path: "/api/support-tickets/:id/messages", endpoint: ReplyToTicket, access: staff },
    // Which signed-in users may see a file depends on the ticket it belongs to: checked in the service.
    { method: "get", path: "/api/support-files/:id", endpoint: GetSupportFile, access: { scope: "user" } },
    {
      method: "post",
      path: "/api/platform/uploads/support-image",
      endpoint: UploadPlatformImage,
      access: operator,
    },
    { method: "get", path: "/api/platform/support-tickets", endpoint: ListPlatformTickets, access: operator },
    {
      method: "get",
      path: "/api/platform/support-tickets/:id",
      endpoint: GetPlatformTicket,
      access: operator,
    },
    {
      method: "patch",
      path: "/api/platform/support-tickets/:id",
      endpoint: RespondToTicket,
      access: operator,
    },
    {
      method: "get",
      path: "/api/public/support-tickets/:reply_token",
      secret: replyToken,
      endpoint: GetPublicTicket,
      access: pub,
    },
    {
      method: "post",
      path: "/api/public/support-tickets/:reply_token/messages",
      secret: replyToken,
      endpoint: ReplyPublicTicket,
      access: pub,
    },
    {
      method: "post",
      path: "/api/public/support-tickets/:reply_token/uploads",
      secret: replyToken,
      endpoint: UploadPublicImage,
      access: pub,
    },
    {
      method: "get",
      path: "/api/public/support-tickets/:reply_token/files/:id",
      secret: replyToken,
      endpoint: GetPublicFile,
      access: pub,
    },
    { method: "post", path: "/api/public/contact", endpoint: SubmitContact, access: pub },
    {
      method: "get",
      path: "/support/reply/:reply_token",
      endpoint: SupportReplyPage,
      access: pub,
      secret: replyToken,
    },
    {
      method: "post",
      path: "/support/reply/:reply_token",
      endpoint: SubmitSupportReplyPage,
      access: pub,
      secret: replyToken,
    },
    {
      method: "post",
      path: "/internal/support-tickets/replies",
      endpoint: AppendInboundReply,
      access: { scope: "service" },
    },
  ],
});
