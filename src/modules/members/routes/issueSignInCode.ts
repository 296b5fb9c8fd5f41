import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { issueSignInCode } from "../../identity/service";
import { IssuedSignInCode, UserIdParam } from "../schemas";

const schema = {
  tags: ["Members"],
  summary: "Issue a member a one-time sign-in code",
  description:
    "Admin only (issue 45): for a member without email (a guard, an elderly resident) or whose " +
    "invitation never arrived, handed over in person. Answers the code (`ABCD-EFGH-JKMN`), the web " +
    "app's link carrying it and that link as a QR code (SVG); shown once, only its hash is kept. " +
    "Single use, valid 24 hours, signs in to this community only; issuing another retires the earlier " +
    "one. Audited (`member.sign_in_code`, never the code). 404 for someone not a member here; 409 " +
    "`sign_in_code_refused` for an account that also belongs to another community, runs the platform " +
    "or is disabled.",
  request: { params: UserIdParam },
  responses: { 201: json(IssuedSignInCode, "Issued"), ...problems(400, 401, 403, 404, 409) },
};

export class IssueSignInCode extends Endpoint {
  /** The code is shown once: a repeat with the same key answers 409, it is never kept to replay. */
  static override credentialAnswer = "no-replay" as const;

  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await issueSignInCode({ ctx: tenantCtx(c), userId: params.userId }), 201);
  }
}
