/**
 * The stack's template with its nested stacks' resources folded in, so assertions see every function,
 * method and grant wherever the stack keeps it (each API area, the pipeline and the web app are nested
 * stacks: lib/route-map-tracker-stack.ts). A nested template's parameters are replaced by what the
 * parent passes, so a nested function's grant reads `Fn::GetAtt [Table, Arn]` exactly like one in the
 * parent.
 */
import { CfnResource, NestedStack, type Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function substitute(value: Json, parameters: Record<string, Json>): Json {
  if (Array.isArray(value)) return value.map((item) => substitute(item, parameters));
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  const ref = value.Ref;
  if (keys.length === 1 && typeof ref === "string" && Object.hasOwn(parameters, ref))
    return parameters[ref] as Json;
  return Object.fromEntries(keys.map((key) => [key, substitute(value[key] as Json, parameters)]));
}

export function wholeTemplate(stack: Stack): Template {
  const parent = Template.fromStack(stack).toJSON() as { Resources: Record<string, Json> } & Record<
    string,
    Json
  >;
  const resources: Record<string, Json> = { ...parent.Resources };
  const nestedStacks = stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c));
  for (const nested of nestedStacks) {
    const stackResource = nested.nestedStackResource;
    if (!(stackResource instanceof CfnResource)) throw new Error(`${nested.node.path} has no stack resource`);
    const resourceId = stack.getLogicalId(stackResource);
    const declared = parent.Resources[resourceId] as { Properties?: { Parameters?: Record<string, Json> } };
    const parameters = declared?.Properties?.Parameters ?? {};
    const nestedResources = (Template.fromStack(nested).toJSON() as { Resources: Record<string, Json> })
      .Resources;
    for (const [id, resource] of Object.entries(nestedResources)) {
      if (Object.hasOwn(resources, id)) throw new Error(`logical id ${id} is in two stacks`);
      resources[id] = substitute(resource, parameters);
    }
  }
  return Template.fromJSON({ ...parent, Resources: resources });
}
