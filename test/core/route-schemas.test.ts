import type { OpenAPIRoute } from "chanfana";
import { describe, expect, it } from "vitest";
import { routeTable } from "../../src/app";

/**
 * chanfana constructs a route's endpoint on every request, so a schema declared as a class field
 * (`override schema = { … }`) was built again for each request: its responses, its problems, a list's
 * zod object (ADR 0015, fifteenth pass). Every route keeps one schema object, built when its module
 * loads, and every construction of the endpoint gets that same object.
 */
describe("route schemas", () => {
  it("are one object per route, not one per construction of its endpoint", () => {
    const made = (endpoint: typeof OpenAPIRoute) =>
      new (endpoint as unknown as new (params: object) => { schema: unknown })({ route: "/", urlParams: [] })
        .schema;
    const rebuilt = routeTable
      .filter((route) => {
        const first = made(route.endpoint);
        const second = made(route.endpoint);
        return first !== second;
      })
      .map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(routeTable.length).toBeGreaterThan(200);
    expect(rebuilt).toEqual([]);
  });
});
