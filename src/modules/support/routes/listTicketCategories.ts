import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { Endpoint } from "../../../core/http/endpoint";
import { json } from "../../../core/http/openapi";
import { TICKET_CATEGORIES, TicketCategoryList } from "../schemas";

export class ListTicketCategories extends Endpoint {
  override schema = {
    tags: ["Support"],
    summary: "The ticket categories, with Indonesian and English labels, for a console's picker",
    description:
      "A new ticket's `category` is one of the `choosable` codes; any other value is 400 `invalid_input` " +
      "with a field error on `category`. `kontak` marks the contact form's tickets. Public: the list is " +
      "the same for everyone.",
    security: [],
    responses: { 200: json(TicketCategoryList) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json({ items: TICKET_CATEGORIES });
  }
}
