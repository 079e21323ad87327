/** The API's own description. */
import * as v from "valibot";
import { component, type RouteApis } from "./route-api.ts";

const OpenApiDocumentSchema = v.pipe(
  v.object({
    openapi: v.literal("3.1.0"),
    info: v.object({ title: v.string(), version: v.string() }),
    paths: v.record(v.string(), v.unknown()),
  }),
  v.description("This document."),
);

export const META_ROUTES = {
  "get-openapi": {
    summary: "This API's OpenAPI 3.1 description",
    tag: "meta",
    response: component("OpenApiDocument", OpenApiDocumentSchema, {
      openapi: "3.1.0",
      info: { title: "Route Map Tracker", version: "1.0.0" },
      paths: {},
    }),
  },
} satisfies RouteApis;
