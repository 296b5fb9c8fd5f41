import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, listOf, problems } from "../../../core/http/openapi";
import {
  createPengumuman,
  deletePengumuman,
  deliveryOf,
  getPengumuman,
  listPengumuman,
  updatePengumuman,
} from "../pengumuman";
import {
  CreatePengumumanInput,
  DeliverySummary,
  Pengumuman,
  PengumumanListQuery,
  UpdatePengumumanInput,
} from "../schemas";

export class ListPengumuman extends Endpoint {
  override schema = {
    tags: ["Pengumuman"],
    summary: "Announcements, newest first (residents see published ones)",
    request: { query: PengumumanListQuery },
    responses: { 200: json(listOf(Pengumuman)), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listPengumuman({ ctx: tenantCtx(c), input: query }));
  }
}

export class CreatePengumuman extends Endpoint {
  override schema = {
    tags: ["Pengumuman"],
    summary:
      "Announce: push to the audience's devices, plus WhatsApp and/or email if chosen, respecting preferences and quiet hours (urgent ones ignore quiet hours)",
    request: { body: { content: { "application/json": { schema: CreatePengumumanInput } } } },
    responses: { 201: json(Pengumuman, "Created"), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createPengumuman({ ctx: tenantCtx(c), input: body }), 201);
  }
}

export class GetPengumuman extends Endpoint {
  override schema = {
    tags: ["Pengumuman"],
    summary: "One item",
    request: { params: IdParam },
    responses: { 200: json(Pengumuman), ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getPengumuman({ ctx: tenantCtx(c), id: params.id }));
  }
}

export class UpdatePengumuman extends Endpoint {
  override schema = {
    tags: ["Pengumuman"],
    summary:
      "Change fields; publishing, or editing a published announcement, fans it out again (once per version and channel)",
    request: {
      params: IdParam,
      body: { content: { "application/json": { schema: UpdatePengumumanInput } } },
    },
    responses: { 200: json(Pengumuman), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updatePengumuman({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}

export class DeletePengumuman extends Endpoint {
  override schema = {
    tags: ["Pengumuman"],
    summary: "Delete",
    request: { params: IdParam },
    responses: { 204: { description: "Deleted" }, ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deletePengumuman({ ctx: tenantCtx(c), id: params.id });
    return c.body(null, 204);
  }
}

export class GetPengumumanDelivery extends Endpoint {
  override schema = {
    tags: ["Pengumuman"],
    summary: "Delivery of the latest sent version per channel: queued, sent, failed, skipped with reasons",
    request: { params: IdParam },
    responses: { 200: json(DeliverySummary), ...problems(400, 401, 403, 404, 503) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await deliveryOf({ ctx: tenantCtx(c), id: params.id }));
  }
}
