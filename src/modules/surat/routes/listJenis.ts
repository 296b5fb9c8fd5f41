import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { JenisList } from "../schemas";
import { listJenis } from "../service";

const schema = {
  tags: ["Surat"],
  summary: "List the letter types",
  description:
    "Members, with the letters module (`surat`) switched on. The 12 letter types the spec names, each " +
    "with its code, name and the form schema of the additional fields a request of that type carries " +
    "(`fields`), so a client can build the request form.",

  responses: { 200: json(JenisList), ...problems(401, 403) },
};

export class ListJenis extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(listJenis());
  }
}
