import { ROLES, tenantAccess } from "../../core/http/access";
import { indicator } from "../../core/indicators";
import { defineModule } from "../../core/module";
import { versioned } from "../../platform/conditional";
import { SURAT_ERROR_CODES } from "./errors";
import { suratPersonalData } from "./manifest";
import { AcknowledgeLetter } from "./routes/acknowledgeLetter";
import { CancelLetter } from "./routes/cancelLetter";
import { CreateLetter } from "./routes/createLetter";
import { DeclineLetter } from "./routes/declineLetter";
import { GetLetter } from "./routes/getLetter";
import { GetLetterPdf } from "./routes/getLetterPdf";
import { GetLetterSettings } from "./routes/getSettings";
import { IssueWithoutRw } from "./routes/issueWithoutRw";
import { ListJenis } from "./routes/listJenis";
import { ListLetters } from "./routes/listLetters";
import { ListMyLetters } from "./routes/listMyLetters";
import { ListRwAcknowledgements } from "./routes/listRwAcknowledgements";
import { GetNextNumber } from "./routes/nextNumber";
import { ResubmitLetter } from "./routes/resubmitLetter";
import { UpdateLetter } from "./routes/updateLetter";
import { UpdateLetterSettings } from "./routes/updateSettings";
import { VerifyLetterPage } from "./routes/verifyLetterPage";
import { lettersAwaitingQuery } from "./service";
import { letterSettings, letters } from "./tables";

const flag = "surat" as const;
const resident = tenantAccess(ROLES.RESIDENT, flag);
// The letter console is the staff's (spec: S lists, updates and downloads; issue 42: every duty).
const staff = tenantAccess(ROLES.STAFF, flag);
// A resident reaches only their own letters (loadLetter answers 404 for anyone else's).
const ownerOrStaff = tenantAccess([...ROLES.RESIDENT, ...ROLES.STAFF], flag);
// The RW's Mengetahui is signed for the RW head: its admin and sekretaris (issue 29), not in the spec.
const rwSignatories = tenantAccess(ROLES.SECRETARIAT, flag);
// The letterhead, signatory and numbering: the secretary runs the letter desk (issue 45), with the admin.
const secretariat = tenantAccess(ROLES.SECRETARIAT, flag);
const member = tenantAccess(ROLES.MEMBER, flag);

// Static paths before `/:id`, so `jenis`, `mine`, `next-number`, `settings` and `rw-acknowledgements` are
// never read as ids.
export const suratModule = defineModule({
  name: "surat",
  errorCodes: SURAT_ERROR_CODES,
  // Served with ETag, If-None-Match and If-Match (platform/conditional, ADR 0035).
  versioned: [
    versioned("/api/surat/:id", letters),
    versioned("/api/surat/settings", letterSettings, { id: 1 }),
  ],
  personalData: suratPersonalData,
  routes: [
    { method: "get", path: "/api/surat/jenis", endpoint: ListJenis, access: member },
    { method: "post", path: "/api/surat", endpoint: CreateLetter, access: resident },
    { method: "get", path: "/api/surat/mine", endpoint: ListMyLetters, access: resident },
    { method: "get", path: "/api/surat", endpoint: ListLetters, access: staff },
    { method: "get", path: "/api/surat/next-number", endpoint: GetNextNumber, access: staff },
    { method: "get", path: "/api/surat/settings", endpoint: GetLetterSettings, access: staff },
    { method: "put", path: "/api/surat/settings", endpoint: UpdateLetterSettings, access: secretariat },
    // The RW's Mengetahui of its linked RTs' letters (issue 29): the RW's admin and sekretaris; the verbs
    // answer an RT's staff 403 not_rw_tenant on the queue and 404 on a letter id.
    {
      method: "get",
      path: "/api/surat/rw-acknowledgements",
      endpoint: ListRwAcknowledgements,
      access: rwSignatories,
    },
    {
      method: "post",
      path: "/api/surat/rw-acknowledgements/:letterId",
      endpoint: AcknowledgeLetter,
      access: rwSignatories,
    },
    {
      method: "post",
      path: "/api/surat/rw-acknowledgements/:letterId/decline",
      endpoint: DeclineLetter,
      access: rwSignatories,
    },
    { method: "get", path: "/api/surat/:id", endpoint: GetLetter, access: ownerOrStaff },
    { method: "put", path: "/api/surat/:id", endpoint: UpdateLetter, access: staff },
    { method: "post", path: "/api/surat/:id/issue-without-rw", endpoint: IssueWithoutRw, access: staff },
    { method: "post", path: "/api/surat/:id/resubmit", endpoint: ResubmitLetter, access: resident },
    { method: "post", path: "/api/surat/:id/cancel", endpoint: CancelLetter, access: resident },
    { method: "get", path: "/api/surat/:id/pdf", endpoint: GetLetterPdf, access: ownerOrStaff },
    // Public: the QR on a printed letter; the code itself names the tenant, and verification works
    // with the surat flag off (see publish.ts).
    {
      method: "get",
      path: "/verify/surat/:code",
      endpoint: VerifyLetterPage,
      access: { scope: "public" },
      secret: { params: ["code"] },
    },
  ],
  indicators: [
    indicator({
      key: "lettersAwaitingProcessing",
      label: "Letters awaiting processing",
      flag,
      query: lettersAwaitingQuery,
    }),
  ],
});
