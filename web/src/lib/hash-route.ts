/** The app's routes live in the URL fragment (`/app/#/routemap/02012345675`); parsing is pure. */

export type Route =
  | { page: "shipments" }
  | { page: "routemap"; awb: string }
  | { page: "alerts" }
  | { page: "shared"; token: string }
  | { page: "not-found"; hash: string };

export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/, "").replace(/^\/?/, "/");
  if (path === "/" || path === "/shipments") return { page: "shipments" };
  if (path === "/alerts") return { page: "alerts" };
  const routeMap = /^\/routemap\/(\d{3})-?(\d{8})$/.exec(path);
  if (routeMap) return { page: "routemap", awb: `${routeMap[1]}${routeMap[2]}` };
  const shared = /^\/shared\/([A-Za-z0-9_-]{1,200})$/.exec(path);
  if (shared?.[1]) return { page: "shared", token: shared[1] };
  return { page: "not-found", hash };
}

export const routeMapHash = (awb11: string) => `#/routemap/${awb11}`;
