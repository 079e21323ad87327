/**
 * Server-side request forgery guard, pure part (DESIGN.md section 5): what kind of address a target
 * resolves to, and whether a delivery may go there. DNS resolution happens in the adapter, which must
 * connect to one of the very addresses checked here (no second lookup: DNS rebinding).
 */

export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "unique-local"
  | "multicast"
  | "unspecified"
  | "broadcast"
  | "cgnat"
  | "documentation"
  | "reserved"
  | "invalid";

export interface AddressClassification {
  kind: AddressKind;
  family: 4 | 6 | null;
  /** How an IPv4 address was embedded in an IPv6 one (it is then classified as that IPv4). */
  via: "ipv4-mapped" | "nat64" | null;
  embeddedIpv4: string | null;
}

const IPV4_PART = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Strict dotted decimal only: "0x7f.1" or "0177.0.0.1" are refused, not guessed. */
function parseIpv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => IPV4_PART.test(part))) return null;
  return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

function inV4(address: number, base: string, bits: number): boolean {
  const start = parseIpv4(base) ?? 0;
  const size = 2 ** (32 - bits);
  return address >= start && address < start + size;
}

const IPV4_RANGES: [string, number, AddressKind][] = [
  ["0.0.0.0", 8, "unspecified"], // "this network"; 0.0.0.0 reaches localhost on Linux
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "cgnat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"], // cloud metadata lives here
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["255.255.255.255", 32, "broadcast"],
  ["240.0.0.0", 4, "reserved"],
];

function classifyIpv4(address: number): AddressKind {
  for (const [base, bits, kind] of IPV4_RANGES) if (inV4(address, base, bits)) return kind;
  return "public";
}

function ipv4Text(address: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join(".");
}

/** Eight 16-bit groups, or null. Accepts "::" compression and a trailing dotted IPv4. */
function parseIpv6(input: string): number[] | null {
  let text = input;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    // Rewrite the dotted tail as two hex groups: "::ffff:1.2.3.4" -> "::ffff:102:304".
    const v4 = parseIpv4(dotted[2] ?? "");
    if (v4 === null) return null;
    text = `${dotted[1]}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groupsOf(halves[0] ?? "");
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? "") : [];
  if (![...head, ...tail].every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return null;
  const toNumbers = (groups: string[]) => groups.map((group) => Number.parseInt(group, 16));
  if (halves.length === 1) return head.length === 8 ? toNumbers(head) : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...toNumbers(head), ...new Array<number>(missing).fill(0), ...toNumbers(tail)];
}

function classifyIpv6(g: number[]): AddressClassification {
  const six = (kind: AddressKind): AddressClassification => ({
    kind,
    family: 6,
    via: null,
    embeddedIpv4: null,
  });
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (via: "ipv4-mapped" | "nat64"): AddressClassification => {
    const v4 = g6 * 65536 + g7;
    return { kind: classifyIpv4(v4), family: 6, via, embeddedIpv4: ipv4Text(v4) };
  };
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 0) return six("unspecified");
  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 1) return six("loopback");
  if (firstFiveZero && g5 === 0xffff) return embedded("ipv4-mapped");
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded("nat64");
  if ((g0 & 0xfe00) === 0xfc00) return six("unique-local");
  if ((g0 & 0xffc0) === 0xfe80) return six("link-local");
  if ((g0 & 0xffc0) === 0xfec0) return six("private"); // deprecated site-local
  if ((g0 & 0xff00) === 0xff00) return six("multicast");
  if (g0 === 0x2001 && g1 === 0x0db8) return six("documentation");
  if (g0 === 0x3fff && g1 < 0x1000) return six("documentation"); // 3fff::/20
  // 2001::/23 IETF protocol assignments (Teredo included), 2002::/16 6to4: tunnels to arbitrary IPv4.
  if (g0 === 0x2001 && g1 < 0x0200) return six("reserved");
  if (g0 === 0x2002) return six("reserved");
  // Only 2000::/3 is global unicast; everything else (::/96 IPv4-compatible, 100::/64, ...) is not.
  if ((g0 & 0xe000) === 0x2000) return six("public");
  return six("reserved");
}

/** Classifies one IP address literal (IPv6 may come in brackets and with a zone id). */
export function classifyAddress(ip: string): AddressClassification {
  const text = ip.trim().replace(/^\[(.*)\]$/, "$1");
  const v4 = parseIpv4(text);
  if (v4 !== null) return { kind: classifyIpv4(v4), family: 4, via: null, embeddedIpv4: null };
  const zone = text.indexOf("%");
  const groups = parseIpv6(zone === -1 ? text : text.slice(0, zone));
  if (!groups) return { kind: "invalid", family: null, via: null, embeddedIpv4: null };
  const classified = classifyIpv6(groups);
  // A zone id only makes sense for link-local scopes; never a public target.
  return zone !== -1 && classified.kind === "public" ? { ...classified, kind: "reserved" } : classified;
}

export type DeliveryMode = "production" | "local";

export type TargetRejection =
  | "invalid-url"
  | "scheme-not-allowed"
  | "credentials-in-url"
  | "no-addresses"
  | "address-not-allowed";

export type TargetCheck =
  | { allowed: true }
  | { allowed: false; reason: TargetRejection; detail: string; address?: string; kind?: AddressKind };

/** Production: public only. Local runner: also loopback, so a receiver on this machine works. */
const ALLOWED_KINDS: Record<DeliveryMode, readonly AddressKind[]> = {
  production: ["public"],
  local: ["public", "loopback"],
};

/**
 * Whether a delivery to `url` may go out, given every address its host resolved to (all must pass:
 * the connection may use any of them). An IP-literal host is checked itself.
 */
export function assertTargetAllowed(
  url: string,
  resolvedAddresses: readonly string[],
  mode: DeliveryMode,
): TargetCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { allowed: false, reason: "invalid-url", detail: "not an absolute URL" };
  }
  const schemes = mode === "production" ? ["https:"] : ["https:", "http:"];
  if (!schemes.includes(parsed.protocol)) {
    return {
      allowed: false,
      reason: "scheme-not-allowed",
      detail: mode === "production" ? "targets must use https" : "targets must use http or https",
    };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return { allowed: false, reason: "credentials-in-url", detail: "user name or password in the URL" };
  }
  // WHATWG URL already normalised numeric hosts ("0x7f.1" -> "127.0.0.1") and bracketed IPv6.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const literal = classifyAddress(host).kind !== "invalid" ? [host] : [];
  const addresses = [...literal, ...resolvedAddresses];
  if (addresses.length === 0) {
    return { allowed: false, reason: "no-addresses", detail: `${host} did not resolve to any address` };
  }
  for (const address of addresses) {
    const { kind } = classifyAddress(address);
    if (!ALLOWED_KINDS[mode].includes(kind)) {
      return {
        allowed: false,
        reason: "address-not-allowed",
        detail: `${host} resolves to a ${kind} address`,
        address,
        kind,
      };
    }
  }
  return { allowed: true };
}
