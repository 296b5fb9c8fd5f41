import type { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import type { HonoEnv } from "../env";
import type { RouteDef } from "./access";

/**
 * Type-level bridge from our route table to Hono's client schema: chanfana endpoints are classes, so
 * Hono cannot infer their inputs and outputs itself. Each route contributes its JSON body, query and
 * path params (zod input types) and its 200/201 JSON body (zod output type).
 */
type SchemaOf<E> = E extends abstract new (...args: never[]) => { schema: infer S } ? S : never;
type Zod<T> = T extends z.ZodType ? T : never;
type Nothing = Record<never, never>;

type JsonIn<S> = S extends { request: { body: { content: { "application/json": { schema: infer B } } } } }
  ? { json: z.input<Zod<B>> }
  : Nothing;
type QueryIn<S> = S extends { request: { query: infer Q } } ? { query: z.input<Zod<Q>> } : Nothing;
type ParamIn<S> = S extends { request: { params: infer P } } ? { param: z.input<Zod<P>> } : Nothing;

type Ok<S> = S extends { responses: infer R }
  ? 200 extends keyof R
    ? R[200]
    : 201 extends keyof R
      ? R[201]
      : never
  : never;
type JsonOut<S> =
  Ok<S> extends { content: { "application/json": { schema: infer O } } } ? z.output<Zod<O>> : unknown;

type Endpoint<R extends RouteDef> = {
  input: JsonIn<SchemaOf<R["endpoint"]>> &
    QueryIn<SchemaOf<R["endpoint"]>> &
    ParamIn<SchemaOf<R["endpoint"]>>;
  output: JsonOut<SchemaOf<R["endpoint"]>>;
  outputFormat: "json";
  status: ContentfulStatusCode;
};

export type ClientSchema<Routes extends RouteDef> = {
  [P in Routes["path"]]: {
    [R in Extract<Routes, { path: P }> as `$${R["method"]}`]: Endpoint<R>;
  };
};

export type TypedApp<Routes extends RouteDef> = Hono<HonoEnv, ClientSchema<Routes>, "/">;
