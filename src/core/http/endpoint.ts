import { InputValidationException, MultiException, OpenAPIRoute } from "chanfana";
import { z } from "zod";

/**
 * chanfana's OpenAPIRoute, with its request validator built once per route instead of on every
 * request (chanfana assembles a fresh `z.strictObject` of params, query, headers and body each time,
 * which showed up on the hot path). Same rules: unknown top-level parts are refused, and zod issues
 * become the same `MultiException` of `InputValidationException`s our `onError` maps.
 */
const validators = new WeakMap<object, Map<boolean, z.ZodType>>();

export abstract class Endpoint extends OpenAPIRoute {
  private validator(withBody: boolean): z.ZodType {
    let byBody = validators.get(this.constructor);
    if (!byBody) {
      byBody = new Map();
      validators.set(this.constructor, byBody);
    }
    let validator = byBody.get(withBody);
    if (!validator) {
      const request = this.getSchemaZod().request;
      const shape: Record<string, z.ZodType> = {};
      if (request?.params) {
        shape.params = request.params as z.ZodType;
      }
      if (request?.query) {
        shape.query = request.query as z.ZodType;
      }
      if (request?.headers) {
        shape.headers = request.headers as z.ZodType;
      }
      const body = (request?.body?.content as Record<string, { schema?: unknown }> | undefined)?.[
        "application/json"
      ]?.schema;
      if (withBody && body instanceof z.ZodType) {
        shape.body = body;
      }
      validator = z.strictObject(shape);
      byBody.set(withBody, validator);
    }
    return validator;
  }

  override async validateRequest(request: Request) {
    const method = request.method.toLowerCase();
    const data = await this.getUnvalidatedData();
    try {
      return await this.validator(method !== "get" && method !== "head").parseAsync(data);
    } catch (error) {
      if (error instanceof z.ZodError) {
        throw new MultiException(
          error.issues.map((i) => new InputValidationException(i.message, i.path.map(String))),
        );
      }
      throw error;
    }
  }
}
