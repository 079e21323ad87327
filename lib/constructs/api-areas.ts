/**
 * The API's areas: each is one nested stack holding its routes' functions, roles, log groups, path
 * resources and methods, so no template comes near CloudFormation's limits (500 resources, 1,000,000
 * bytes; a route costs about ten resources and 19 KB) as routes are added. A route belongs to the area
 * with the longest path prefix that covers it (both its plain and its service-prefixed path).
 *
 * Adding an area is one line here. A path resource that routes of two or more areas pass through
 * (`/ffw`, `/support`, the service prefix, ...) is created once by the API itself and shared; all
 * others belong to their area. Plain data: no CDK import.
 */
import { ROUTES, type RouteDefinition, routePaths } from "../../functions/contracts/routes.ts";

export interface RouteArea {
  /** Construct id of the area's nested stack (its logical id derives from it: never rename). */
  id: string;
  /** Path prefixes (whole segments) of the routes it serves. */
  paths: readonly string[];
}

/**
 * Sized to stay near 20 routes each (about 200 resources and 400 KB): an area that grows beyond that
 * gets a line for its busiest sub-path, as the forwarder and support areas have.
 */
export const ROUTE_AREAS: readonly RouteArea[] = [
  // Unauthenticated: the API description, e-mail confirmation links, route-map share links.
  { id: "PublicRoutes", paths: ["/openapi.json", "/email-confirmations", "/shared"] },
  // Forwarders: route maps, searches, sendsme, shares (and whatever else comes under /ffw).
  { id: "ForwarderRoutes", paths: ["/ffw"] },
  { id: "ForwarderRuleRoutes", paths: ["/ffw/service/routemap/eventconfignotifier"] },
  {
    id: "ForwarderWebhookRoutes",
    paths: ["/ffw/service/routemap/webhook", "/ffw/service/routemap/customer-endpoints"],
  },
  // Carriers: posted messages and their pull queue of status requests.
  { id: "CarrierRoutes", paths: ["/carrier"] },
  // ONE Record (notifications today; its API area's routes land here).
  { id: "OneRecordRoutes", paths: ["/onerecord"] },
  // Support: carriers, usage, inbound mail, customer endpoints; forwarders and their people apart.
  { id: "SupportRoutes", paths: ["/support"] },
  { id: "SupportForwarderRoutes", paths: ["/support/forwarders"] },
];

const covers = (prefix: string, path: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The area serving a route: the longest prefix that covers its path; throws when none does. */
export function areaOf(route: RouteDefinition, areas: readonly RouteArea[] = ROUTE_AREAS): RouteArea {
  let best: { area: RouteArea; length: number } | undefined;
  for (const area of areas) {
    for (const prefix of area.paths) {
      if (covers(prefix, route.path) && prefix.length > (best?.length ?? -1))
        best = { area, length: prefix.length };
    }
  }
  if (!best)
    throw new Error(
      `No API area serves ${route.method} ${route.path}: add its path to ROUTE_AREAS (lib/constructs/api-areas.ts)`,
    );
  return best.area;
}

/** "/a/b/c" -> ["/a", "/a/b", "/a/b/c"]: every path resource a path needs. */
export function pathResources(path: string): string[] {
  const segments = path.split("/").filter(Boolean);
  return segments.map((_, index) => `/${segments.slice(0, index + 1).join("/")}`);
}

export interface AreaPlan {
  /** Each area with routes, in ROUTE_AREAS order, with its routes. */
  areas: Array<{ area: RouteArea; routes: RouteDefinition[] }>;
  /** Path resources two or more areas pass through, parents first: created once, by the API. */
  sharedPaths: string[];
}

/** Which routes each area serves and which path resources they share. */
export function planAreas(
  serviceName: string,
  routes: readonly RouteDefinition[] = ROUTES,
  areas: readonly RouteArea[] = ROUTE_AREAS,
): AreaPlan {
  const byArea = new Map<RouteArea, RouteDefinition[]>();
  const handlerArea = new Map<string, RouteArea>();
  const pathAreas = new Map<string, Set<RouteArea>>();
  for (const route of routes) {
    const area = areaOf(route, areas);
    // One function per handler, in one nested stack.
    const other = handlerArea.get(route.handler);
    if (other && other !== area)
      throw new Error(`handler ${route.handler} serves routes in two API areas (${other.id}, ${area.id})`);
    handlerArea.set(route.handler, area);
    byArea.set(area, [...(byArea.get(area) ?? []), route]);
    for (const path of routePaths(route, serviceName).flatMap(pathResources)) {
      pathAreas.set(path, (pathAreas.get(path) ?? new Set()).add(area));
    }
  }
  return {
    areas: areas.filter((area) => byArea.has(area)).map((area) => ({ area, routes: byArea.get(area) ?? [] })),
    sharedPaths: [...pathAreas]
      .filter(([, users]) => users.size > 1)
      .map(([path]) => path)
      .sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b)),
  };
}
