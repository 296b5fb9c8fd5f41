import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { JenisList } from "../schemas";
import { listJenis } from "../service";

export class ListJenis extends Endpoint {
  override schema = {
    tags: ["Surat"],
    summary: "The 12 letter types with the form schema of their additional fields",

    responses: { 200: json(JenisList), ...problems(401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(listJenis());
  }
}
