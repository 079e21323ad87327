/**
 * valibot schemas as JSON Schema 2020-12, the dialect OpenAPI 3.1 uses as is. Named components are
 * converted together, so a component inside another is a `$ref` to it rather than a copy.
 */
import {
  type ConversionConfig,
  type JsonSchema,
  toJsonSchema,
  toJsonSchemaDefs,
} from "@valibot/to-json-schema";
import type * as v from "valibot";
import type { Component } from "../routes/route-api.ts";
import { plainObjectInner } from "../schemas/plain-object.ts";

export type JsonObject = Record<string, unknown>;

export const componentRef = (name: string) => `#/components/schemas/${name}`;

// "ignore": transformations such as trim or a query's mapping to the use case's shape have no JSON
// Schema form; the validation parts still convert.
const BASE: ConversionConfig = {
  target: "draft-2020-12",
  errorMode: "ignore",
  // A plainObject (arrays refused, see plain-object.ts) is documented as the object it wraps.
  overrideSchema: ({ valibotSchema }) => {
    const inner = plainObjectInner(valibotSchema);
    return inner ? (inlineSchema(inner) as JsonSchema) : undefined;
  },
};

/** The definitions the conversion made for itself (plainObject's lazy wrapper) must all be gone. */
function withoutLeftovers(schema: JsonObject, where: string): JsonObject {
  if (JSON.stringify(schema).includes('"#/$defs/'))
    throw new Error(`${where}: a $ref to a definition outside components/schemas`);
  return schema;
}

/** One schema on its own (a query's members, a plainObject's inner object), without references. */
export function inlineSchema(schema: v.GenericSchema): JsonObject {
  const { $schema: _dialect, $defs: _leftovers, ...rest } = toJsonSchema(schema, BASE) as JsonObject;
  return withoutLeftovers(rest, "an inline schema");
}

/**
 * Each component's JSON Schema under its name, with its example. Two components may share a name only
 * with the same schema object, and one schema object has one name.
 */
export function componentSchemas(components: Iterable<Component>): Record<string, JsonObject> {
  const byName = new Map<string, Component>();
  const nameOf = new Map<v.GenericSchema, string>();
  for (const component of components) {
    const known = byName.get(component.name);
    if (known && known.schema !== component.schema)
      throw new Error(`two different schemas are named ${component.name}`);
    const named = nameOf.get(component.schema);
    if (named && named !== component.name)
      throw new Error(`one schema is named both ${named} and ${component.name}`);
    byName.set(component.name, known ?? component);
    nameOf.set(component.schema, component.name);
  }
  const definitions = Object.fromEntries([...byName].map(([name, component]) => [name, component.schema]));
  const converted = toJsonSchemaDefs(definitions, {
    ...BASE,
    overrideRef: ({ referenceId }) => (byName.has(referenceId) ? componentRef(referenceId) : undefined),
  }) as Record<string, JsonObject>;
  return Object.fromEntries(
    [...byName].map(([name, component]) => [
      name,
      { ...withoutLeftovers(converted[name] ?? {}, name), examples: [component.example] },
    ]),
  );
}
