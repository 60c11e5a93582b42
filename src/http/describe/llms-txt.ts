// /llms.txt and /llms-full.txt: the OpenAPI document rewritten as plain text for people who point
// coding assistants at the API (https://llmstxt.org). Pure: it reads the document built by
// openapi.ts, so it cannot say anything the document does not. docs/api.md (api-markdown.ts) is
// written from the same document with the pieces exported here.

/** The document is plain JSON of a known shape, walked by key: typed loosely at this one boundary. */
export type Json = any;

export interface Operation {
  method: string;
  path: string;
  operation: Json;
}

export const BOUND = /^(.+)_(gte|lte)$/;

export function operationsOf(document: Json): Operation[] {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Json>).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })));
}

/** `#/components/x/Name` → the node, `$ref`s followed. */
export function resolve(document: Json, node: Json): Json {
  const target = node?.$ref as string | undefined;
  if (target === undefined) return node;
  return resolve(document, target.slice(2).split("/").reduce((at: Json, key) => at?.[key], document));
}

const refName = (node: Json): string | undefined => (typeof node?.$ref === "string" ? (node.$ref as string).split("/").pop() : undefined);

/** A schema in TypeScript-like notation: `{ count: integer; nextCursor: string | null; rows?: Player[] }`. */
export function schemaText(schema: Json, depth = 0): string {
  if (schema === undefined || schema === null || Object.keys(schema).length === 0) return "any";
  const name = refName(schema);
  if (name !== undefined) return name;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((value) => JSON.stringify(value)).join(" | ");
  const union = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  if (union) return union.map((member) => schemaText(member, depth)).join(" | ");
  if (Array.isArray(schema.allOf)) return (schema.allOf as Json[]).map((member) => schemaText(member, depth)).filter((text) => text !== "object").join(" & ");
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as (string | undefined)[];
  return types.map((type) => {
    switch (type) {
      case "array": {
        const items = schemaText(schema.items, depth);
        return /[ |&]/.test(items) ? `(${items})[]` : `${items}[]`;
      }
      case "object": {
        const properties = Object.entries((schema.properties ?? {}) as Record<string, Json>);
        if (properties.length === 0) return "object";
        const required = new Set((schema.required ?? []) as string[]);
        if (depth >= 3) return "object";
        return `{ ${properties.map(([key, value]) => `${key}${required.has(key) ? "" : "?"}: ${schemaText(value, depth + 1)}`).join("; ")} }`;
      }
      case "integer":
      case "number": {
        const range = schema.minimum !== undefined && schema.maximum !== undefined ? ` ${schema.minimum}–${schema.maximum}` : "";
        return `${type}${range}`;
      }
      case "string":
        return schema.format === undefined ? "string" : `string (${schema.format})`;
      case undefined:
        return "any";
      default:
        return type;
    }
  }).join(" | ");
}

function parameterLine(parameter: Json): string {
  const schema = parameter.schema ?? {};
  const facts = [...(parameter.in === "query" ? [] : [`in ${parameter.in}`]), schemaText(schema)];
  if (schema.pattern !== undefined) facts.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) facts.push(`default ${JSON.stringify(schema.default)}`);
  if (parameter.required === true) facts.push("required");
  return `- \`${parameter.name}\` (${facts.join(", ")}): ${parameter.description ?? ""}`.trimEnd();
}

/** Every parameter of one operation, the attribute bounds folded into one line. */
function parameterLines(document: Json, operation: Json): string[] {
  const parameters = ((operation.parameters ?? []) as Json[]).map((parameter) => resolve(document, parameter));
  const lines: string[] = [];
  const bounds = new Set<string>();
  for (const parameter of parameters) {
    const bound = BOUND.exec(parameter.name as string);
    if (bound && parameter.in === "query") {
      bounds.add(bound[1] as string);
      continue;
    }
    lines.push(parameterLine(parameter));
  }
  if (bounds.size > 0) {
    lines.push(`- \`{attribute}_gte\`, \`{attribute}_lte\` (integer 0–99): inclusive bounds on one attribute; {attribute} is one of ${[...bounds].join(", ")}`);
  }
  return lines;
}

export function responseLines(document: Json, operation: Json): string[] {
  return Object.entries(operation.responses as Record<string, Json>).map(([status, response]) => {
    const content = Object.entries((response.content ?? {}) as Record<string, Json>);
    if (content.length === 0) return `- ${status}: ${response.description}`;
    const [type, { schema }] = content[0] as [string, Json];
    if (type !== "application/json") return `- ${status} (${content.map(([name]) => name).join(", ")}): ${response.description}`;
    const errorCodes = schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum as string[] | undefined;
    if (errorCodes) return `- ${status}: ErrorEnvelope with code ${errorCodes.join(" | ")}`;
    const resolved = resolve(document, schema);
    const properties = resolved?.properties as Record<string, Json> | undefined;
    if (properties?.data !== undefined) {
      const meta = properties.meta === undefined ? "" : `; meta: ${schemaText(properties.meta)}`;
      return `- ${status}: ${response.description}. data: ${schemaText(properties.data)}${meta}`;
    }
    return `- ${status}: ${response.description} (${schemaText(resolved)})`;
  });
}

/** A record one field a line: `- name?: type`. */
export function recordLines(schema: Json): string[] {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Json>);
  if (properties.length === 0) return [schemaText(schema)];
  const required = new Set((schema.required ?? []) as string[]);
  return properties.map(([key, value]) => {
    const note = value.description === undefined ? "" : ` (${value.description})`;
    return `- ${key}${required.has(key) ? "" : "?"}: ${schemaText(value, 1)}${note}`;
  });
}

const heading = (document: Json): string[] => [
  `# ${document.info.title}`,
  "",
  `> ${(document.info.description as string).split("\n\n")[0]}`,
  "",
];

/** The short form: what the API is, how to call it, and one line per route. */
export function renderLlmsTxt(document: Json): string {
  const lines = heading(document);
  lines.push(
    "Every JSON answer is an envelope: `{ success: true, data, meta }` or `{ success: false, error: { code, message, details?, timestamp } }`.",
    "Send the API key in the `X-API-Key` header on routes marked (key).",
    "The two bulk routes also answer CSV, Parquet or Arrow (`format=csv|parquet|arrow`): one flat, typed row per player, for pandas, DuckDB or a spreadsheet.",
    "",
    "## Routes",
    "",
  );
  for (const { method, path, operation } of operationsOf(document)) {
    const access = operation.security ? " (key)" : "";
    lines.push(`- ${method} ${path}${access}: ${operation.summary}`);
  }
  lines.push(
    "",
    "## Docs",
    "",
    "- [Full reference: every route, parameter, response, error and limit](/llms-full.txt)",
    "- [OpenAPI 3.1 document](/api/openapi.json)",
    "- [API reference page](/docs)",
    "",
  );
  return lines.join("\n");
}

/** The long form: the document's description, every operation in full, the records and the errors. */
export function renderLlmsFullTxt(document: Json): string {
  const lines = heading(document);
  lines.push(...(document.info.description as string).split("\n\n").slice(1).flatMap((paragraph) => [paragraph, ""]));
  lines.push(`OpenAPI ${document.openapi} document version ${document.info.version}: /api/openapi.json`, "", "## Routes", "");
  for (const { method, path, operation } of operationsOf(document)) {
    lines.push(`### ${method} ${path}`, "", `${operation.summary}. ${operation.description ?? ""}`.trimEnd(), "");
    const parameters = parameterLines(document, operation);
    if (parameters.length > 0) lines.push("Parameters:", ...parameters, "");
    const body = operation.requestBody?.content?.["application/json"]?.schema;
    if (body !== undefined) lines.push(`Body (application/json, ${operation.requestBody.description}): ${schemaText(body)}`, "");
    lines.push("Responses:", ...responseLines(document, operation), "");
  }
  lines.push("## Records", "");
  for (const [name, schema] of Object.entries(document.components.schemas as Record<string, Json>)) {
    if (name === "ErrorCode") continue;
    lines.push(`### ${name}`, "");
    if (schema.description) lines.push(schema.description as string, "");
    lines.push(...recordLines(schema), "");
  }
  lines.push("## Errors", "", "Every error is `{ success: false, error: { code, message, details?, timestamp } }` with one of these codes (HTTP status in brackets):", "");
  lines.push(...(document.components.schemas.ErrorCode.description as string).split("\n\n").map((line) => `- ${line}`), "");
  lines.push("## Headers", "");
  for (const [name, header] of Object.entries(document.components.headers as Record<string, Json>)) lines.push(`- \`${name}\`: ${header.description}`);
  lines.push("");
  return lines.join("\n");
}
