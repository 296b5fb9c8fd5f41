import { describe, expect, it } from "vitest";
import { isTextMediaType } from "../../src/core/http/openapi-document";
import { callJson } from "../helpers/harness";

/**
 * Issue 42 item 5: a body of bytes (a PDF, an xlsx, a zip, an image, a CSV download, a multipart
 * upload's file) is typed binary in /openapi.json, so a generated client sends a Blob and reads one
 * back rather than a string. Walks every request and response content of every operation.
 */
type Schema = { type?: string; format?: string; contentMediaType?: string; $ref?: string } & {
  properties?: Record<string, Schema>;
};
interface Doc {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content?: Record<string, { schema?: Schema }> };
        responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
      }
    >
  >;
  components: { schemas: Record<string, Schema> };
}

const binary = (schema: Schema | undefined) => schema?.type === "string" && schema.format === "binary";

describe("binary bodies in /openapi.json", () => {
  it("types every body of bytes, and every file part of a multipart upload, as binary", async () => {
    const doc = (await callJson<Doc>("/openapi.json")).body;
    const resolve = (schema: Schema | undefined) =>
      schema?.$ref ? doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")] : schema;
    const wrong: string[] = [];
    const binaries = new Set<string>();
    let uploads = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        const contents: [string, Record<string, { schema?: Schema }> | undefined][] = [
          ["request", op.requestBody?.content],
          ...Object.entries(op.responses).map(([code, r]): [string, typeof r.content] => [code, r.content]),
        ];
        for (const [part, content] of contents) {
          for (const [type, media] of Object.entries(content ?? {})) {
            const schema = resolve(media.schema);
            if (type === "multipart/form-data") {
              uploads++;
              const files = Object.entries(schema?.properties ?? {}).filter(([name]) => name === "file");
              if (files.length === 0 || !files.every(([, file]) => binary(resolve(file)))) {
                wrong.push(`${where} ${part} ${type}: its \`file\` part is not binary`);
              }
            } else if (!isTextMediaType(type)) {
              binaries.add(type);
              if (!binary(schema)) {
                wrong.push(`${where} ${part} ${type}: ${JSON.stringify(schema)}`);
              } else if (!type.includes("*") && schema?.contentMediaType !== type) {
                wrong.push(`${where} ${part} ${type}: contentMediaType ${schema?.contentMediaType}`);
              }
            }
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    // The walk saw the kinds the issue names, so it is not passing on an empty document.
    expect([...binaries]).toEqual(
      expect.arrayContaining([
        "application/pdf",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/zip",
        "text/csv",
        "image/svg+xml",
      ]),
    );
    expect(uploads).toBeGreaterThanOrEqual(6);
  });

  it("leaves JSON, problems and the HTML pages as they are", async () => {
    const doc = (await callJson<Doc>("/openapi.json")).body;
    const letter = doc.paths["/api/surat/{id}"]?.get?.responses["200"]?.content?.["application/json"]?.schema;
    expect(letter).toBeDefined();
    expect(binary(letter)).toBe(false);
    const page = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .flatMap((op) => Object.values(op.responses))
      .find((r) => r.content?.["text/html"])?.content?.["text/html"]?.schema;
    expect(page).toMatchObject({ type: "string" });
    expect(page?.format).toBeUndefined();
  });
});
