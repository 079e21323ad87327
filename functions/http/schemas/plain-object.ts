/**
 * valibot's object schemas accept an array whose keys they do not check (an empty array parses as {}:
 * open-circle/valibot#1630, "intended"). Where every field is optional, `[]` would then be taken for
 * "no settings" instead of being refused as the wrong type. `plainObject` refuses arrays first.
 */
import * as v from "valibot";

const NOT_AN_ARRAY = v.custom<never>(() => false, "must be an object, not an array");

/** The wrapped schema of each `plainObject`, so the OpenAPI builder can document the object itself. */
const wrapped = new WeakMap<object, v.GenericSchema>();

export function plainObject<TSchema extends v.GenericSchema>(schema: TSchema): TSchema {
  const guarded = v.lazy((input) => (Array.isArray(input) ? NOT_AN_ARRAY : schema) as TSchema);
  wrapped.set(guarded, schema);
  // The lazy schema parses to exactly what `schema` does (arrays aside), so it stands in for it.
  return guarded as unknown as TSchema;
}

/** The object schema behind a `plainObject`, or undefined for any other schema. */
export function plainObjectInner(schema: object): v.GenericSchema | undefined {
  return wrapped.get(schema);
}
