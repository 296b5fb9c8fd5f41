import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { Endpoint } from "../../../core/http/endpoint";
import { json } from "../../../core/http/openapi";
import { TICKET_CATEGORIES, TicketCategoryList } from "../schemas";

const schema = {
  tags: ["Support"],
  summary: "List the support ticket categories",
  description:
    "The codes a console's picker offers, with Indonesian and English labels. A new ticket's `category` " +
    "is one of the `choosable` codes; POST /api/support-tickets refuses any other with a field error on " +
    "`category`. `kontak` marks the contact form's tickets. Public: the list is " +
    "the same for everyone.",
  security: [],
  responses: { 200: json(TicketCategoryList) },
};

export class ListTicketCategories extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json({ items: TICKET_CATEGORIES });
  }
}
