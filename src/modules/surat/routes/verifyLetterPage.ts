import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { unknownLetterPage, verifiedLetterPage } from "../../../pages/verify-surat";
import { verifyLetter } from "../publish";

const html = (description: string) => ({ description, content: { "text/html": { schema: z.string() } } });

export class VerifyLetterPage extends Endpoint {
  override schema = {
    tags: ["Pages"],
    summary: "Public page the letter's QR opens: confirms number, type, date, community and validity",
    security: [],
    request: { params: z.object({ code: z.string().min(1).max(200) }) },
    responses: { 200: html("The letter is valid"), 404: html("No valid letter has this code") },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const letter = await verifyLetter({ ctx: platformCtx(c), input: { code: params.code } });
    c.header("Cache-Control", "no-store");
    return letter ? c.html(verifiedLetterPage(letter)) : c.html(unknownLetterPage(), 404);
  }
}
