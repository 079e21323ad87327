/**
 * Bad-input suite: well over 1,000 generated malformed requests across every route of the route table.
 * Body probes start from a VALID sample body per route and break ONE thing at a time (a wrong type, a
 * missing field, a 100 KB string under the body limit, an injection string, a bad AWB or check digit,
 * an out-of-range number, another forwarder's endpoint), so each reaches the validation of that field
 * instead of failing on the first missing one. Around them: foreign, expired, alg=none and garbage
 * tokens, wrong roles, bad path parameters on every parameterised route (the others filled with real
 * ids), another forwarder's real rule/webhook/route map, invalid JSON, wrong content types, oversize
 * bodies. Every answer must be a 4xx problem+json — never a 5xx — and no table may change. Finally each
 * sample is sent unbroken and accepted, which proves the probes started from valid bodies.
 */
import { createPrivateKey, generateKeyPairSync, sign } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, expect, it } from "vitest";
import { carrierClaims, forwarderClaims, signDevToken, supportClaims } from "../../bin/dev-issuer.ts";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../../bin/local/emulators.ts";
import { TABLES } from "../../functions/contracts/resources.ts";
import { ROUTES, type RouteDefinition, routePaths } from "../../functions/contracts/routes.ts";
import type { Role } from "../../functions/core/identity.ts";
import { type Receiver, startReceiver } from "../adapters/pipeline/receiver.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { makeJwt } from "../unit/notifications/helpers.ts";
import { HOUR, local, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
let receiver: Receiver;
let db: DynamoDBDocumentClient;

const FFW = "/ffw/service/routemap";
const SERIAL = "12345675";
const AWB = `020${SERIAL}`;
const CONCURRENCY = 16;
/** A string of 100 KB: over every field's own limit, under the 256 KB body limit. */
const HUGE = "A".repeat(100 * 1024);
const INJECTIONS = [
  "' OR '1'='1",
  '"; DROP TABLE RouteMaps; --',
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell-style payload, literally.
  "${jndi:ldap://x/a}",
  "{{7*7}}",
  "\u0000",
  "%00",
  "\r\nX-Injected: yes",
  "😀".repeat(50),
];
const BAD_PATH_VALUES = [
  "x",
  "-1",
  "0",
  "1e9",
  "02012345670",
  "020-1234567",
  "9".repeat(300),
  ...INJECTIONS.slice(0, 6),
];

const supportToken = () => signDevToken(supportClaims());
const carrierToken = () => signDevToken(carrierClaims("020"));
const ownerToken = () => tokens.forwarder("ACMECARGO", "1234567", "0001", "FRA");
/** Another forwarder, with its own agent code: every ACMECARGO resource must be 404 to it. */
const strangerToken = () => tokens.forwarder("FWD2", "7654321", "0002", "FRA");

/** Real ids created before the snapshot, so probes on parameterised routes get past "not found". */
const real = {
  ruleId: "",
  webhookId: "",
  endpointId: "",
  strangerEndpointId: "",
  forwarderId: "ACMECARGO",
  forwarderClientId: "",
  carrierClientId: "",
};

async function snapshotTables(): Promise<Record<string, string[]>> {
  const dump: Record<string, string[]> = {};
  for (const table of Object.values(TABLES)) {
    // The rate-limit windows count every authenticated request, refused or not: no data.
    if (table.id === TABLES.rateLimits.id) continue;
    const items: string[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      // A Scan is fine here: this is the test looking at everything, not the service.
      const page = await db.send(new ScanCommand({ TableName: table.id, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []).map((item) => JSON.stringify(item)));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    dump[table.id] = items.sort();
  }
  return dump;
}

/**
 * A carrier's refused body is recorded in its inbound log, so support sees it with its reason: a
 * record of the refusal, not a change made by the input. What else a refused request left behind.
 */
function changesBesidesRefusalRecords(
  before: Record<string, string[]>,
  after: Record<string, string[]>,
): string[] {
  const changes: string[] = [];
  for (const [table, items] of Object.entries(after)) {
    const had = new Set(before[table] ?? []);
    const has = new Set(items);
    for (const item of had) if (!has.has(item)) changes.push(`${table}: gone ${item.slice(0, 200)}`);
    for (const item of has) {
      if (had.has(item)) continue;
      const parsed = JSON.parse(item) as { pk?: string; entry?: string };
      const entry =
        typeof parsed.entry === "string" ? (JSON.parse(parsed.entry) as { outcome?: string }) : {};
      const refusalRecord = parsed.pk?.startsWith("INBOUND#") === true && entry.outcome === "refused";
      if (!refusalRecord) changes.push(`${table}: new ${item.slice(0, 200)}`);
    }
  }
  return changes;
}

async function created(response: Awaited<ReturnType<typeof call>>, key: "Id"): Promise<string> {
  expect(response.status, response.text).toBe(200);
  return String((response.body as Record<string, unknown>)[key]);
}

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startRunner({
    RATE_LIMIT_PER_SECOND: "100000",
    RATE_LIMIT_BURST: "100000",
    RATE_LIMIT_PER_MINUTE: "1000000000",
    RATE_LIMIT_PER_HOUR: "1000000000",
    RATE_LIMIT_PER_DAY: "1000000000",
  });
  db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.dynamoEndpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
    }),
  );
  // Something to be refused access to: a carrier, a route map owned by ACMECARGO (agent 1234567/0001),
  // ACMECARGO's customer endpoint, rule and webhook, and a customer endpoint of FWD2.
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: supportToken(),
    json: { Name: "Example Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status, put.text).toBe(200);
  const booking = await call(stack.url, "POST", "/carrier/messages", {
    token: carrierToken(),
    json: samples.bookingMessage(),
  });
  expect(booking.status, booking.text).toBe(200);
  const fwb = await call(stack.url, "POST", "/carrier/messages", {
    token: carrierToken(),
    json: { ...awbFields(), Type: "FWB", Agent: { Code: "1234567", Cass: "0001" } },
  });
  expect(fwb.status, fwb.text).toBe(200);
  real.endpointId = await created(
    await call(stack.url, "POST", "/support/customer-endpoints", {
      token: supportToken(),
      json: samples.customerEndpoint(),
    }),
    "Id",
  );
  real.strangerEndpointId = await created(
    await call(stack.url, "POST", "/support/customer-endpoints", {
      token: supportToken(),
      json: { ...samples.customerEndpoint(), ForwarderIdentifier: "FWD2" },
    }),
    "Id",
  );
  real.ruleId = await created(
    await call(stack.url, "POST", `${FFW}/eventconfignotifier`, {
      token: ownerToken(),
      // Not the sample itself: the accepted-samples test creates that one (a twin would be a 409).
      json: { ...samples.emailRule(), NotifyTo: "setup@fwd1.example" },
    }),
    "Id",
  );
  real.webhookId = await created(
    await call(stack.url, "POST", `${FFW}/webhook`, { token: ownerToken(), json: samples.webhook() }),
    "Id",
  );
  // ACMECARGO and carrier 020 onboarded as tenants, each with a machine client.
  const onboarded = await call(stack.url, "POST", "/support/forwarders", {
    token: supportToken(),
    json: { ...samples.forwarder(), ForwarderId: real.forwarderId },
  });
  expect(onboarded.status, onboarded.text).toBe(201);
  for (const [key, path] of [
    ["forwarderClientId", `/support/forwarders/${real.forwarderId}/clients`],
    ["carrierClientId", "/support/carriers/020/clients"],
  ] as const) {
    const client = await call(stack.url, "POST", path, { token: supportToken(), json: samples.client() });
    expect(client.status, client.text).toBe(201);
    real[key] = String((client.body as Record<string, unknown>).ClientId);
  }
}, scaled(90_000));

afterAll(async () => {
  db?.destroy();
  await stack?.stop();
  await receiver?.stop();
});

// ---- valid samples ------------------------------------------------------------------------------

const NOW = minuteNow();
const awbFields = () => ({
  AirlinePrefix: "020",
  AwbNumber: SERIAL,
  Origin: "FRA",
  Destination: "JFK",
  Pieces: 10,
  WeightCode: "K",
  Weight: 250,
});
const reportedAt = local("FRA", NOW - HOUR);
const departure = local("FRA", NOW + 6 * HOUR);
const arrival = local("JFK", NOW + 14 * HOUR);
const JWT = makeJwt({ alg: "RS256", typ: "JWT" }, { sub: "bad-input" });

const samples = {
  forwarder: () => ({
    ForwarderId: "FWDSAMPLE",
    AgentCode: "1234567",
    AgentCass: "0001",
    AgentStation: "FRA",
    ContactEmail: "ops@fwd1.example",
  }),
  client: () => ({ Name: "sample client" }),
  forwarderUser: () => ({ Email: "person@fwd1.example" }),
  emailRule: () => ({
    ChannelType: "Email",
    NotifyTo: "ops@fwd1.example",
    HeaderItems: "AWB,MIL,NTF",
    FormatType: "Html",
    AirlinePrefix: "020",
    AwbNumber: SERIAL,
    Event: "DEP,ARR",
    EventAlert: true,
    MissedEventAlert: false,
    ProActiveAlert: false,
    ProActiveTime: 0,
    Destination: "JFK",
    Origin: "FRA",
    Enabled: true,
  }),
  urlRule: () => ({
    ChannelType: "Url",
    NotifyTo: real.endpointId,
    HeaderItems: "",
    FormatType: "Json",
    AirlinePrefix: "*",
    Event: "RCS",
    EventAlert: false,
    MissedEventAlert: false,
    ProActiveAlert: true,
    ProActiveTime: 30,
    Enabled: true,
  }),
  webhook: () => ({
    Event: "DEP,ARR,RMP",
    Url: `${receiver.url}/hook`,
    Enable: true,
    Type: "json",
    AWB: `020-${SERIAL}`,
    Token: JWT,
    Psk: "psk-0123456789abcdef",
  }),
  customerEndpoint: () => ({
    ForwarderIdentifier: "ACMECARGO",
    Url: `${receiver.url}/customer`,
    HeaderName: "apiKey",
    HeaderValue: "k-0123456789abcdef",
  }),
  carrier: () => ({
    Name: "Example Cargo",
    QualityProgram: true,
    Xtd: true,
    Planning: {
      Offsets: { DepAfterStd: 60, RcsBeforeFirstStd: 120 },
      RoadFeederFlightNumbers: [{ CarrierCode: "LH", Pattern: "9\\d{3}" }],
    },
  }),
  share: () => ({ ExpiresInHours: 24 }),
  sendsme: () => ({ AirlinePrefix: "020", AwbNumber: SERIAL, AgentCode: "1234567", AgentCass: "0001" }),
  search: () => ({
    CreationDate: { From: "2026-01-01", To: "2099-12-31T23:59:59Z" },
    AirlinePrefix: "020",
    AwbNumber: SERIAL,
    Origin: "FRA",
    Destination: "JFK",
    Status: ["Booked", "Accepted"],
    Sort: "-CreationDate +Origin",
  }),
  statusMessage: () => ({
    ...awbFields(),
    Type: "RCS",
    Station: "FRA",
    Time: reportedAt.jsonForm,
    Quantity: { Pieces: 10, WeightCode: "K", Weight: 250 },
  }),
  bookingMessage: () => ({
    ...awbFields(),
    Type: "BKD",
    Legs: [
      {
        CarrierCode: "LH",
        FlightNumber: "400",
        Date: departure.date,
        Origin: "FRA",
        Destination: "JFK",
        ScheduledDeparture: departure.jsonForm,
        ScheduledArrival: arrival.jsonForm,
        IsRoadFeederService: false,
      },
    ],
  }),
  cargoImp: () => [
    `FSU/13`,
    `020-${SERIAL}FRAJFK/T10K250.0`,
    `RCS/${reportedAt.ddmmm}${reportedAt.hhmm}/FRA/T10K250.0`,
  ],
  xfsu: (parts: Partial<Record<XfsuPart, string>> = {}) => {
    const p = {
      awb: `020-${SERIAL}`,
      origin: "FRA",
      destination: "JFK",
      code: "RCS",
      station: "FRA",
      time: `${reportedAt.jsonForm}:00`,
      pieces: "10",
      weight: "250.0",
      doctype: "",
      ...parts,
    };
    return `<?xml version="1.0" encoding="UTF-8"?>${p.doctype}
<rsm:StatusMessage xmlns:rsm="iata:statusmessage:1" xmlns:ram="iata:datamodel:3">
  <rsm:MessageHeaderDocument><ram:ID>${p.awb}_RCS</ram:ID><ram:TypeCode>FSU</ram:TypeCode><ram:VersionID>3.00</ram:VersionID></rsm:MessageHeaderDocument>
  <rsm:BusinessHeaderDocument><ram:ID>${p.awb}</ram:ID></rsm:BusinessHeaderDocument>
  <rsm:MasterConsignment>
    <ram:GrossWeightMeasure unitCode="KGM">${p.weight}</ram:GrossWeightMeasure>
    <ram:PieceQuantity>${p.pieces}</ram:PieceQuantity>
    <ram:TotalPieceQuantity>${p.pieces}</ram:TotalPieceQuantity>
    <ram:TransportContractDocument><ram:ID>${p.awb}</ram:ID></ram:TransportContractDocument>
    <ram:OriginLocation><ram:ID>${p.origin}</ram:ID></ram:OriginLocation>
    <ram:FinalDestinationLocation><ram:ID>${p.destination}</ram:ID></ram:FinalDestinationLocation>
    <ram:ReportedStatus>
      <ram:ReasonCode>${p.code}</ram:ReasonCode>
      <ram:AssociatedStatusConsignment>
        <ram:GrossWeightMeasure unitCode="KGM">${p.weight}</ram:GrossWeightMeasure>
        <ram:PieceQuantity>${p.pieces}</ram:PieceQuantity>
        <ram:TransportSplitDescription>T</ram:TransportSplitDescription>
        <ram:SpecifiedLogisticsTransportMovement>
          <ram:SpecifiedLocation><ram:ID>${p.station}</ram:ID></ram:SpecifiedLocation>
          <ram:SpecifiedEvent><ram:OccurrenceDateTime>${p.time}</ram:OccurrenceDateTime><ram:DateTimeTypeCode>A</ram:DateTimeTypeCode></ram:SpecifiedEvent>
        </ram:SpecifiedLogisticsTransportMovement>
      </ram:AssociatedStatusConsignment>
    </ram:ReportedStatus>
  </rsm:MasterConsignment>
</rsm:StatusMessage>`;
  },
};
type XfsuPart =
  | "awb"
  | "origin"
  | "destination"
  | "code"
  | "station"
  | "time"
  | "pieces"
  | "weight"
  | "doctype";

// ---- one-field mutations --------------------------------------------------------------------------

const MISSING = Symbol("missing");
type Path = ReadonlyArray<string | number>;
interface FieldMutations {
  path: Path;
  /** Invalid values for this field in this sample (MISSING: the field is left out). */
  values: unknown[];
}

/** The sample with one field replaced (or removed); everything else stays valid. */
function mutate(sample: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(sample) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (value === MISSING) delete parent[last];
  else parent[last] = value;
  return copy;
}

const notString = [12345, true, ["x"], { x: 1 }];
const notBoolean = ["true", 1, [], { value: true }, null];
const notNumber = ["1", true, [], { n: 1 }, null];
/** Wrong types, the empty string, a 100 KB string and the injection strings: a code-like field. */
const codeLike = (...specific: unknown[]) => [...notString, null, "", HUGE, ...INJECTIONS, ...specific];
const stations = (...specific: unknown[]) => codeLike("fra", "FRAX", "F1A", ...specific);
/** Times with a year of 0000-0999 or more than a year from receipt. */
const FAR_YEARS = [
  "0000-01-01T00:00",
  "0001-03-14T09:00",
  "0999-12-31T23:59",
  `${new Date().getUTCFullYear() + 2}-03-14T09:00`,
  `${new Date().getUTCFullYear() - 2}-03-14T09:00`,
];
/** Non-finite numbers JSON.stringify cannot write (1e999 parses as Infinity): [field, raw member]. */
const NON_FINITE_JSON: Array<[string, string]> = [
  ["Weight", '"Weight":1e999'],
  ["Weight", '"Weight":-1e999'],
  ["Volume", '"Volume":1e999'],
  ["Pieces", '"Pieces":1e999'],
  ["Quantity.Weight", '"Quantity":{"Pieces":1,"Weight":1e999}'],
  ["Quantity.Volume", '"Quantity":{"Pieces":1,"Volume":-1e999}'],
];
const awbSerials = codeLike("12345670", "1234567", "123456789", "abcdefgh", "020-12345675");
const prefixes = codeLike("20", "0200", "abc", "-20");
const urls = (...specific: unknown[]) =>
  codeLike(
    "not a url",
    "ftp://127.0.0.1/x",
    "javascript:alert(1)",
    "file:///etc/passwd",
    "http://user:pass@127.0.0.1/x",
    `http://127.0.0.1/${"x".repeat(2100)}`,
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/hook",
    "http://[::ffff:10.0.0.1]/x",
    // Control characters and spaces: URL parsing would drop them silently.
    "http://127.0.0.1/a\r\nb",
    "http://127.0.0.1/a\nb",
    "http://127.0.0.1/a\tb",
    "http://127.0.0.1/a b",
    "http://127.0.0.1/hook\r\n",
    " http://127.0.0.1/hook",
    "http://127.0.0.1/a\u0000b",
    ...specific,
  );

const field = (path: Path, ...values: unknown[]): FieldMutations => ({ path, values });

function ruleMutations(): FieldMutations[] {
  return [
    field(["ChannelType"], MISSING, ...codeLike("email", "Sms", "URL")),
    field(
      ["NotifyTo"],
      MISSING,
      ...codeLike(
        "not-an-email",
        "ops@fwd1.example\r\nBcc: victim@example.com",
        "ops@fwd1.example, other@example.com",
        `${"a".repeat(250)}@x.example`,
      ),
    ),
    field(["HeaderItems"], MISSING, ...codeLike("AWB,XYZ", "AWB,,MIL", "AWB,AWB", "awb", "AWB;MIL")),
    field(["FormatType"], MISSING, ...codeLike("Json", "html", "Xml")),
    field(["AirlinePrefix"], MISSING, ...prefixes, "*"),
    field(["AwbNumber"], ...awbSerials.filter((value) => value !== "")),
    field(["Event"], MISSING, ...codeLike("DEP,XYZ", "DEP,,ARR", "DEP,DEP", "dep", "RMP", "CAN")),
    field(["EventAlert"], MISSING, ...notBoolean, false),
    field(["MissedEventAlert"], ...notBoolean, true),
    field(["ProActiveAlert"], ...notBoolean, true),
    field(["ProActiveTime"], ...notNumber, -1, 1.5, 10_081, 5, 1e308, "30"),
    field(["Destination"], ...stations().filter((value) => value !== null && value !== "")),
    field(["Origin"], ...stations().filter((value) => value !== null && value !== "")),
    field(["Enabled"], MISSING, ...notBoolean),
  ];
}

function urlRuleMutations(): FieldMutations[] {
  return [
    field(
      ["NotifyTo"],
      "00000000-0000-4000-8000-000000000000",
      "not-a-guid",
      `${real.endpointId}x`,
      real.strangerEndpointId,
      "ops@fwd1.example",
      HUGE,
      ...INJECTIONS.slice(0, 4),
    ),
    field(["HeaderItems"], "AWB", "AWB,MIL,NTF", HUGE, ...INJECTIONS.slice(0, 4)),
    field(["FormatType"], "Html", HUGE),
    field(["ProActiveTime"], 0, -5, 10_081, 2.5, "30", null),
    field(["EventAlert"], true),
  ];
}

function webhookMutations(): FieldMutations[] {
  const noneJwt = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${Buffer.from("{}").toString("base64url")}.`;
  return [
    field(["Event"], MISSING, ...codeLike("AWD", "DEP,XYZ", "DEP,DEP", "dep", "DEP,,ARR")),
    field(["Url"], MISSING, ...urls()),
    field(["Enable"], MISSING, ...notBoolean),
    field(["Type"], MISSING, ...codeLike("JSON", "yaml", "html")),
    field(
      ["AWB"],
      ...codeLike("02012345670", "020-1234567", "20", "abc", "020-12345675-1").filter(
        (v) => v !== null && v !== "",
      ),
    ),
    field(
      ["Token"],
      ...codeLike(
        "not-a-jwt",
        "a.b.c",
        noneJwt,
        `${JWT}.extra`,
        // A masked value that is not the stored secret's mask (the right one keeps it: tolerant reader).
        "••••zzzz",
        "x".repeat(9000),
      ).filter((value) => value !== null),
    ),
    field(
      ["Psk"],
      ...[
        ...notString,
        "",
        HUGE,
        "short",
        "has spaces in it 12345",
        "whsec_!!!!",
        `whsec_${Buffer.from("eight by").toString("base64")}`,
        "••••zzzz",
        "\r\nX-Injected: yes",
        "x".repeat(257),
      ],
    ),
  ];
}

function forwarderMutations(): FieldMutations[] {
  return [
    field(["ForwarderId"], MISSING, ...notString, null, "", "a b", "x".repeat(65), HUGE, ...INJECTIONS),
    field(["Name"], ...notString, "", "   ", "x".repeat(101), "a\u0007b", HUGE),
    field(["AgentCode"], MISSING, ...codeLike("123456", "12345678", "abcdefg", 1234567)),
    field(["AgentCass"], MISSING, ...codeLike("001", "00001", "abcd", 1)),
    field(["AgentStation"], ...notString, "", "fra", "FRAX", "F1A", HUGE, ...INJECTIONS),
    field(["ContactEmail"], MISSING, ...notString, null, "", "not-an-address", "a@", HUGE, ...INJECTIONS),
  ];
}

function forwarderUserMutations(): FieldMutations[] {
  return [
    field(
      ["Email"],
      MISSING,
      ...notString,
      null,
      "",
      "   ",
      "not-an-address",
      "a@",
      `${"a".repeat(250)}@x.example`,
      HUGE,
      ...INJECTIONS,
    ),
  ];
}

function clientMutations(): FieldMutations[] {
  return [field(["Name"], ...notString, "", "   ", "x".repeat(101), HUGE, "\u0000", "a\r\nb")];
}

function customerEndpointMutations(): FieldMutations[] {
  return [
    field(["ForwarderIdentifier"], MISSING, ...notString, null, "", "   ", HUGE, "x".repeat(65)),
    field(["Url"], MISSING, ...urls()),
    field(
      ["HeaderName"],
      MISSING,
      // "%00" is a legal header name (% is a token character): not a probe here.
      ...codeLike("content-type", "Host", "x y", "x:y", "x\r\ny", "x".repeat(101)).filter(
        (value) => value !== "%00",
      ),
    ),
    field(
      ["HeaderValue"],
      MISSING,
      ...[
        ...notString,
        null,
        "",
        HUGE,
        "line\r\nX-Injected: yes",
        "\u0000",
        "é",
        "tab\nnewline",
        "x".repeat(4097),
      ],
    ),
  ];
}

function carrierMutations(): FieldMutations[] {
  return [
    field(["Name"], MISSING, ...notString, null, "", "   ", HUGE, "x".repeat(101)),
    field(["QualityProgram"], MISSING, ...notBoolean),
    field(["Xtd"], MISSING, ...notBoolean),
    field(["Planning"], "x", 1, null, []),
    // Cargo-IMP by e-mail: addresses, each once, at most 20.
    field(
      ["InboundSenders"],
      "gw@lh-cargo.example",
      {},
      null,
      ["not an address"],
      [1],
      [""],
      ["gw@lh-cargo.example", "GW@lh-cargo.example"],
      Array.from({ length: 21 }, (_, i) => `gw${i}@lh-cargo.example`),
    ),
    field(["Planning", "Offsets"], [], "x"),
    field(["Planning", "Offsets", "DepAfterStd"], ...notNumber, -1, 1.5, 10_081, 1e308),
    field(
      ["Planning", "RoadFeederFlightNumbers"],
      "9\\d{3}",
      {},
      Array.from({ length: 21 }, () => ({ Pattern: "9" })),
    ),
    field(
      ["Planning", "RoadFeederFlightNumbers", 0, "Pattern"],
      MISSING,
      ...notString,
      null,
      "",
      "(",
      "[",
      "x".repeat(41),
      HUGE,
    ),
    field(
      ["Planning", "RoadFeederFlightNumbers", 0, "CarrierCode"],
      ...notString,
      "L",
      "lh",
      "LHX",
      HUGE,
      INJECTIONS[0],
    ),
  ];
}

function sendsmeMutations(): FieldMutations[] {
  return [
    field(["AirlinePrefix"], MISSING, ...prefixes, "176"),
    field(["AwbNumber"], MISSING, ...awbSerials),
    field(["AgentCode"], MISSING, ...codeLike("123456", "12345678", "abcdefg", "7654321")),
    field(["AgentCass"], MISSING, ...codeLike("001", "00001", "abcd", "0002")),
    field(["IsXTD"], ...notBoolean),
  ];
}

function shareMutations(): FieldMutations[] {
  return [field(["ExpiresInHours"], MISSING, ...notNumber, 0, -1, 721, 1.5, 1e9, "x", HUGE)];
}

function stationMutations(): FieldMutations[] {
  return [field(["MinimumConnectionMinutes"], MISSING, ...notNumber, -1, 1441, 1.5, 1e9, "x", HUGE)];
}

function searchMutations(): FieldMutations[] {
  const instants = codeLike(
    "2026-13-01",
    "2026-02-32",
    "2026-02-30",
    "2026-02-29",
    "2026-03-14T24:00:00Z",
    "2026-03-14T10:00:00+15:00",
    "yesterday",
    "2026-03-14T10:00",
    "14.03.2026",
  );
  return [
    field(["CreationDate"], "2026", 1, []),
    field(["CreationDate", "From"], ...instants.filter((value) => value !== null)),
    field(["CreationDate", "To"], ...instants.filter((value) => value !== null)),
    field(["DeliveryDate"], { From: "not a date" }, "2026-01-01"),
    field(["ReceiptDate"], { To: HUGE }, "2026"),
    field(["AirlinePrefix"], ...prefixes.filter((value) => value !== null)),
    field(["AwbNumber"], ...awbSerials.filter((value) => value !== null && value !== "12345670")),
    field(["Origin"], ...stations().filter((value) => value !== null)),
    field(["Destination"], ...stations().filter((value) => value !== null)),
    field(["Status"], "Booked", [], ["Lost"], [1], [HUGE], INJECTIONS),
    field(
      ["Sort"],
      ...codeLike("Bogus", "+", "-Password", "CreationDate;DROP").filter((v) => v !== null && v !== ""),
    ),
  ];
}

function statusMessageMutations(): FieldMutations[] {
  return [
    field(["Type"], MISSING, ...codeLike("rcs", "XYZ", "FSU")),
    field(["AirlinePrefix"], MISSING, ...prefixes, "176"),
    field(["AwbNumber"], MISSING, ...awbSerials),
    field(["Origin"], MISSING, ...stations("QQQ")),
    field(["Destination"], MISSING, ...stations("QQQ")),
    field(["Station"], MISSING, ...stations("QQQ", "JFK ")),
    field(
      ["Time"],
      MISSING,
      ...codeLike(
        "2026-02-30T09:10",
        "2026-03-14T25:00",
        "2026-03-14T09:60",
        `${reportedAt.jsonForm}Z`,
        "yesterday",
        // Years: 0000-0999 and more than a year from receipt.
        ...FAR_YEARS,
      ),
    ),
    field(["Pieces"], ...notNumber.filter((value) => value !== null), -1, 10_000, 1.5, 1e308),
    // Implausible per unit (point 15); non-finite ones go as raw text (NON_FINITE_JSON).
    field(["Weight"], ...notNumber.filter((value) => value !== null), -1, -0.5, 1e200, 1e-200, 1_000_001),
    field(["Volume"], -1, 1e200, 1e-200, 100_001),
    field(["WeightCode"], ...notString, "G", "k", HUGE),
    field(["Quantity"], "10", 10, []),
    field(["Quantity", "Pieces"], MISSING, -1, 1.5, "10", null),
    field(["Flight"], "LH400", 1),
    field(["DeliveredTo"], HUGE, 12, "x".repeat(71)),
  ];
}

function bookingMessageMutations(): FieldMutations[] {
  const leg = (key: string) => ["Legs", 0, key] as const;
  return [
    field(["Legs"], MISSING, [], "LH400", {}, [null], [1]),
    field(leg("CarrierCode"), MISSING, ...codeLike("L", "lh", "LHX")),
    field(leg("FlightNumber"), MISSING, ...codeLike("12345", "40A0", "LH400")),
    field(leg("Date"), MISSING, ...codeLike("2026-02-30", "14MAR", "2026-3-14")),
    field(leg("Origin"), MISSING, ...stations("QQQ")),
    field(leg("Destination"), MISSING, ...stations("QQQ")),
    field(
      leg("ScheduledDeparture"),
      ...codeLike("2026-02-30T09:10", "soon", ...FAR_YEARS).filter((value) => value !== null),
    ),
    field(leg("ScheduledArrival"), ...codeLike("2026-03-14T24:00").filter((value) => value !== null)),
    field(leg("IsRoadFeederService"), "yes", 1, []),
    field(["WholeItinerary"], "yes", 1),
  ];
}

function cargoImpMutations(): Array<{ label: string; text: string }> {
  const [header, awbLine, statusLine] = samples.cargoImp() as [string, string, string];
  const d = reportedAt.ddmmm;
  const t = reportedAt.hhmm;
  const variants: Array<[string, [string, string, string] | string]> = [
    ["no header", `${awbLine}\n${statusLine}`],
    ["header only", header],
    ["no status line", `${header}\n${awbLine}`],
    ["no AWB line", `${header}\n${statusLine}`],
    ["unknown message type", ["FXX/13", awbLine, statusLine]],
    ["check digit", [header, `020-12345670FRAJFK/T10K250.0`, statusLine]],
    ["foreign prefix", [header, `176-12345675FRAJFK/T10K250.0`, statusLine]],
    ["short serial", [header, `020-1234567FRAJFK/T10K250.0`, statusLine]],
    ["unknown destination", [header, `020-${SERIAL}FRAQQQ/T10K250.0`, statusLine]],
    ["lower-case origin", [header, `020-${SERIAL}fraJFK/T10K250.0`, statusLine]],
    ["pieces not a number", [header, `020-${SERIAL}FRAJFK/TXXK250.0`, statusLine]],
    ["negative pieces", [header, `020-${SERIAL}FRAJFK/T-1K250.0`, statusLine]],
    ["unknown weight code", [header, `020-${SERIAL}FRAJFK/T10G250.0`, statusLine]],
    ["weight over 1,000 t", [header, `020-${SERIAL}FRAJFK/T10K9999999`, statusLine]],
    ["volume over 100,000 m3", [header, awbLine, `RCS/${d}${t}/FRA/T10K250.0MC999999`]],
    ["day 32", [header, awbLine, `RCS/32${d.slice(2)}${t}/FRA/T10K250.0`]],
    ["unknown month", [header, awbLine, `RCS/${d.slice(0, 2)}XYZ${t}/FRA/T10K250.0`]],
    ["hour 25", [header, awbLine, `RCS/${d}2510/FRA/T10K250.0`]],
    ["minute 61", [header, awbLine, `RCS/${d}0961/FRA/T10K250.0`]],
    ["unknown station", [header, awbLine, `RCS/${d}${t}/QQQ/T10K250.0`]],
    ["unknown status code", [header, awbLine, `XYZ/${d}${t}/FRA/T10K250.0`]],
    ["DEP with a bad flight", [header, awbLine, `DEP/LH40000/${d}/FRAJFK/T10K250.0/A${t}`]],
    ["100 KB status line", [header, awbLine, `${statusLine}/${HUGE}`]],
    ["100 KB station", [header, awbLine, `RCS/${d}${t}/${HUGE}/T10K250.0`]],
    ["100 KB AWB line", [header, `020-${SERIAL}${HUGE}`, statusLine]],
    ...INJECTIONS.map((injection): [string, [string, string, string]] => [
      `station ${JSON.stringify(injection.slice(0, 12))}`,
      [header, awbLine, `RCS/${d}${t}/${injection}/T10K250.0`],
    ]),
    ...INJECTIONS.map((injection): [string, [string, string, string]] => [
      `status line ${JSON.stringify(injection.slice(0, 12))}`,
      [header, awbLine, injection],
    ]),
    ...INJECTIONS.map((injection): [string, [string, string, string]] => [
      `AWB ${JSON.stringify(injection.slice(0, 12))}`,
      [header, `020-${injection}FRAJFK/T10K250.0`, statusLine],
    ]),
  ];
  return variants.map(([label, lines]) => ({
    label,
    text: typeof lines === "string" ? lines : lines.join("\n"),
  }));
}

function xfsuMutations(): Array<{ label: string; text: string }> {
  const laughs =
    '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>';
  const parts: Array<[XfsuPart, string[]]> = [
    ["awb", ["020-12345670", "176-12345675", "020-1234567", "abc", HUGE, ...INJECTIONS.slice(0, 6)]],
    ["origin", ["QQQ", "fra", HUGE, ...INJECTIONS.slice(0, 6)]],
    ["destination", ["QQQ", "J1K"]],
    ["code", ["XYZ", "rcs", "", HUGE, ...INJECTIONS.slice(0, 6)]],
    ["station", ["QQQ", "fra", "", HUGE, "&d;", ...INJECTIONS.slice(0, 6)]],
    [
      "time",
      [
        "2026-02-30T09:10:00",
        "not a time",
        "",
        `${reportedAt.date}T25:10:00`,
        `${reportedAt.date}T09:61:00`,
        HUGE,
        ...FAR_YEARS.map((year) => `${year}:00`),
      ],
    ],
    ["pieces", ["-1", "abc", "1.5", "99999999"]],
    ["weight", ["-1", "abc", "999999999", "0.0000001"]],
  ];
  const mutations = parts.flatMap(([part, values]) =>
    values.map((value) => ({
      label: `XFSU ${part}=${JSON.stringify(value.slice(0, 20))}`,
      // Text goes in as XML text (escaped), as a client building the document would put it.
      text: samples.xfsu({
        [part]: value === "&d;" ? value : value.replace(/&/g, "&amp;").replace(/</g, "&lt;"),
        ...(value === "&d;" ? { doctype: laughs } : {}),
      }),
    })),
  );
  return [
    ...mutations,
    {
      label: "XFSU external entity",
      text: samples.xfsu({
        doctype: '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
        station: "&e;",
      }),
    },
    { label: "XFSU truncated", text: samples.xfsu().slice(0, 400) },
    {
      label: "XFSU without the status",
      text: samples.xfsu().replace(/<ram:ReportedStatus>[\s\S]*<\/ram:ReportedStatus>/, ""),
    },
    { label: "XFSU unclosed tags", text: "<a><b></a>" },
  ];
}

// ---- probes ---------------------------------------------------------------------------------------

interface Probe {
  label: string;
  method: string;
  path: string;
  token?: string;
  headers?: Record<string, string>;
  body?: string;
  contentType?: string;
  /** For a one-field mutation answered 400: the field its problem must name, and the value sent. */
  field?: string;
  value?: unknown;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

function badTokens(): string[] {
  const claims = forwarderClaims({ forwarderId: "ACMECARGO", agentCode: "1234567", agentCass: "0001" });
  const [header, payload] = signDevToken(claims).split(".") as [string, string];
  const foreignKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
    type: "pkcs8",
    format: "pem",
  });
  const foreign = `${header}.${payload}.${base64url(sign("RSA-SHA256", Buffer.from(`${header}.${payload}`), createPrivateKey(foreignKey)))}`;
  const none = `${base64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${payload}.`;
  const hs256 = `${base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${payload}.${base64url("forged")}`;
  const tampered = `${header}.${base64url(JSON.stringify({ ...claims, role: "support" }))}.${signDevToken(claims).split(".")[2]}`;
  return [
    signDevToken(claims, -3600),
    foreign,
    none,
    hs256,
    tampered,
    "garbage",
    "a.b.c",
    `${header}.${payload}`,
    signDevToken({ role: "forwarder", forwarder_id: "F", agent_code: "12", agent_cass: "x" }),
    signDevToken({ role: "pilot" }),
  ];
}

function tokenFor(role: Role): string {
  if (role === "forwarder") return ownerToken();
  if (role === "carrier") return carrierToken();
  return supportToken();
}

/** Fills a path template with real values, except `bad` at parameter `target`. */
function fillPath(template: string, target: string | null, bad: string): string {
  const isWebhook = template.includes("/webhook/");
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === target) return encodeURIComponent(bad);
    if (name === "awb") return AWB;
    if (name === "prefix") return "020";
    if (name === "code") return "FRA";
    if (name === "clientId")
      return template.includes("/carriers/") ? real.carrierClientId : real.forwarderClientId;
    if (name === "id" && template.includes("/support/forwarders/")) return real.forwarderId;
    if (name === "id" && template.includes("/customer-endpoints/")) return real.endpointId;
    if (name === "id") return isWebhook ? real.webhookId : real.ruleId;
    return "0000-no-such-delivery";
  });
}

/** The valid sample body of a route and the one-field mutations of it. */
function sampleFor(route: RouteDefinition): Array<{ sample: unknown; mutations: FieldMutations[] }> {
  switch (route.handler) {
    case "create-notification-rule":
      return [
        { sample: samples.emailRule(), mutations: ruleMutations() },
        { sample: samples.urlRule(), mutations: urlRuleMutations() },
      ];
    // Other bodies than the creations' (the accepted samples are stored: an identical rule is a 409).
    case "update-notification-rule":
      return [
        { sample: { ...samples.emailRule(), NotifyTo: "updated@fwd1.example" }, mutations: ruleMutations() },
        { sample: { ...samples.urlRule(), Event: "DEP" }, mutations: urlRuleMutations() },
      ];
    case "create-webhook":
    case "update-webhook":
      return [{ sample: samples.webhook(), mutations: webhookMutations() }];
    case "register-customer-endpoint":
      return [{ sample: samples.customerEndpoint(), mutations: customerEndpointMutations() }];
    case "update-customer-endpoint": {
      // The endpoint keeps its forwarder: ForwarderIdentifier is not part of an update.
      const { ForwarderIdentifier: _forwarder, ...update } = samples.customerEndpoint();
      const mutations = customerEndpointMutations().filter((m) => m.path[0] !== "ForwarderIdentifier");
      return [{ sample: update, mutations }];
    }
    case "put-carrier":
      return [{ sample: samples.carrier(), mutations: carrierMutations() }];
    case "create-forwarder":
      return [{ sample: samples.forwarder(), mutations: forwarderMutations() }];
    case "create-forwarder-client":
    case "create-carrier-client":
      return [{ sample: samples.client(), mutations: clientMutations() }];
    case "create-forwarder-user":
      return [{ sample: samples.forwarderUser(), mutations: forwarderUserMutations() }];
    case "trigger-route-map":
      return [{ sample: samples.sendsme(), mutations: sendsmeMutations() }];
    case "search-route-maps":
      return [{ sample: samples.search(), mutations: searchMutations() }];
    case "create-route-map-share":
      return [{ sample: samples.share(), mutations: shareMutations() }];
    case "put-station":
      return [{ sample: { MinimumConnectionMinutes: 90 }, mutations: stationMutations() }];
    case "ingest-carrier-message":
      return [
        { sample: samples.statusMessage(), mutations: statusMessageMutations() },
        { sample: samples.bookingMessage(), mutations: bookingMessageMutations() },
      ];
    default:
      if (route.body?.contentTypes.includes("application/json"))
        throw new Error(`no valid sample body for ${route.method} ${route.path}: add one`);
      return [];
  }
}

function mutationProbes(route: RouteDefinition, path: string, token: string): Probe[] {
  const probes: Probe[] = [];
  const json = (label: string, body: string): Probe => ({
    label: `${route.method} ${route.path} ${label}`,
    method: route.method,
    path,
    token,
    body,
    contentType: "application/json",
  });
  for (const { sample, mutations } of sampleFor(route)) {
    for (const { path: fieldPath, values } of mutations) {
      for (const value of values) {
        const label = `${fieldPath.join(".")}=${value === MISSING ? "(missing)" : JSON.stringify(value)?.slice(0, 40)}`;
        const body = mutate(sample, fieldPath, value);
        probes.push({ ...json(label, JSON.stringify(body)), field: fieldPath.join("."), value });
        if (route.handler === "ingest-carrier-message") {
          // In an envelope after a valid message: everything is checked before anything is written.
          probes.push({
            ...json(`Messages[1].${label}`, JSON.stringify({ Messages: [sample, body] })),
            field: `Messages.1.${fieldPath.join(".")}`,
            value,
          });
        }
      }
    }
    // The whole body of the wrong shape ({} is a valid search: every filter is optional).
    const shapes: unknown[] = [
      [],
      [sample],
      "text",
      42,
      null,
      ...(EVERY_FIELD_OPTIONAL.has(route.handler) ? [] : [{}]),
    ];
    for (const body of shapes)
      probes.push(json(`body ${JSON.stringify(body)?.slice(0, 30)}`, JSON.stringify(body)));
    // A prototype-pollution key: refused before the (tolerant) request schemas read the body (carrier
    // messages, parsed by their own reader, ignore unknown keys like any other).
    if (route.handler !== "ingest-carrier-message")
      probes.push(json("__proto__", `{"__proto__":{"admin":true},${JSON.stringify(sample).slice(1)}`));
  }
  if (route.handler === "ingest-carrier-message") {
    probes.push(json("Messages empty", JSON.stringify({ Messages: [] })));
    probes.push(
      json("101 messages", JSON.stringify({ Messages: Array.from({ length: 101 }, samples.statusMessage) })),
    );
    const text = (label: string, body: string, contentType: string): Probe => ({
      label: `${route.method} ${route.path} ${label}`,
      method: route.method,
      path,
      token,
      body,
      contentType,
    });
    const rawStatus = JSON.stringify(samples.statusMessage())
      .slice(0, -1)
      .replace(/,"Quantity":\{[^}]*\}/, "");
    for (const [field, member] of NON_FINITE_JSON) {
      probes.push({ ...json(`non-finite ${member}`, `${rawStatus},${member}}`), field, value: member });
    }
    const deep = `${"[".repeat(20_000)}0${"]".repeat(20_000)}`;
    probes.push({ ...json("nested 20,000 deep", `${rawStatus},"Deep":${deep}}`), field: "Deep", value: "" });
    for (const { label, text: body } of cargoImpMutations())
      probes.push(text(`Cargo-IMP ${label}`, body, "text/plain"));
    for (const { label, text: body } of xfsuMutations()) probes.push(text(label, body, "application/xml"));
  }
  return probes;
}

/** Routes whose body may be `{}` (every member optional): a search, a machine client without a Name. */
const EVERY_FIELD_OPTIONAL = new Set([
  "search-route-maps",
  "create-forwarder-client",
  "create-carrier-client",
]);

/** Content type, invalid JSON and oversize bodies: the framing every body route must refuse. */
function framingProbes(route: RouteDefinition, path: string, token: string): Probe[] {
  const probes: Probe[] = [];
  const contentTypes = route.body?.contentTypes ?? [];
  const post = (what: string, body: string, contentType: string): Probe => ({
    label: `${route.method} ${path} ${what}`,
    method: route.method,
    path,
    token,
    body,
    contentType,
  });
  for (const type of [
    "application/x-www-form-urlencoded",
    "image/png",
    "text/html",
    "application/octet-stream",
  ]) {
    if (!contentTypes.includes(type)) probes.push(post(`content-type ${type}`, "a=1", type));
  }
  probes.push(
    post("oversize", JSON.stringify({ blob: "x".repeat(300 * 1024) }), contentTypes[0] ?? "application/json"),
  );
  if (contentTypes.includes("application/json")) {
    for (const text of ["{", '{"a":}', "[1,2", "nul", "{'single':1}", "\u0000", "", '{"a":1}}']) {
      probes.push(post(`invalid JSON ${JSON.stringify(text)}`, text, "application/json"));
    }
  }
  return probes;
}

/** Whether a route acts on one of ACMECARGO's own resources (a rule, a webhook or a route map). */
const ownsResource = (route: RouteDefinition) =>
  route.roles !== "public" && route.roles.includes("forwarder") && /\{(id|awb)\}/.test(route.path);

function probesFor(route: RouteDefinition): Probe[] {
  const probes: Probe[] = [];
  if (route.roles === "public") return probes;
  const allowed = route.roles;
  const bodyFor = () => {
    const [first] = sampleFor(route);
    return first ? { body: JSON.stringify(first.sample), contentType: "application/json" } : {};
  };
  for (const [pathIndex, template] of routePaths(route).entries()) {
    const label = `${route.method} ${template}`;
    const params = [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as string);
    const path = fillPath(template, null, "");
    probes.push({ label: `${label} no token`, method: route.method, path });
    probes.push({
      label: `${label} basic auth`,
      method: route.method,
      path,
      headers: { authorization: "Basic Zm9vOmJhcg==" },
    });
    for (const token of badTokens())
      probes.push({ label: `${label} bad token`, method: route.method, path, token, ...bodyFor() });
    for (const role of (["forwarder", "carrier", "support"] as const).filter((r) => !allowed.includes(r))) {
      probes.push({
        label: `${label} role ${role}`,
        method: route.method,
        path,
        token: tokenFor(role),
        ...bodyFor(),
      });
    }
    const token = tokenFor(allowed[0] ?? "forwarder");
    if (ownsResource(route)) {
      // Another forwarder on ACMECARGO's real rule/webhook/route map, with a valid body: 404, nothing changes.
      probes.push({
        label: `${label} stranger`,
        method: route.method,
        path,
        token: strangerToken(),
        ...bodyFor(),
      });
    }
    for (const param of params) {
      for (const bad of BAD_PATH_VALUES) {
        probes.push({
          label: `${label} ${param}=${bad.slice(0, 20)}`,
          method: route.method,
          path: fillPath(template, param, bad),
          token,
          ...bodyFor(),
        });
      }
    }
    if (route.query === "force") {
      for (const query of ["force=yes", "force=TRUE", "force=1", "force=", "force=true&x=1"]) {
        probes.push({ label: `${label} ?${query}`, method: route.method, path: `${path}?${query}`, token });
      }
    }
    if (route.query) {
      const queries =
        route.query === "lane"
          ? [
              "lane=",
              "lane=FRA-JFK",
              "lane=0200 FRA-JFK",
              "lane=020 FRAJFK",
              "lane=020 fra-jfk",
              `lane=${"9".repeat(400)}`,
            ]
          : route.query === "cursor"
            ? [
                "Limit=0",
                "Limit=101",
                "Limit=abc",
                "Limit=1e3",
                `Limit=${"9".repeat(40)}`,
                "Cursor=!",
                "Cursor=",
              ]
            : [
                "CurrentPage=-1",
                "CurrentPage=abc",
                "PageSize=0",
                "PageSize=501",
                "PageSize=1e3",
                `CurrentPage=${"9".repeat(40)}`,
              ];
      for (const query of queries) {
        probes.push({
          label: `${label} ?${query}`,
          method: route.method,
          path: `${path}?${query}`,
          token,
          ...bodyFor(),
        });
      }
    }
    if (route.body) probes.push(...framingProbes(route, path, token));
    // One-field mutations on the route's own path; the service-prefixed path is the same handler.
    if (route.body && pathIndex === 0) probes.push(...mutationProbes(route, path, token));
  }
  return probes;
}

/**
 * Whether a 400 is about the mutated field, so the probe reached that field's own validation rather
 * than failing on something else first: an error names the field (dot path; carrier messages say
 * "line 1: Messages[1].Legs[0].Date"), or a cross-field error names it in its message ("only one of
 * EventAlert, ..."), or a carrier message's semantic check quotes the value (unknown airport "QQQ").
 */
function namesField(body: unknown, field: string, value: unknown): boolean {
  const problem = body as { errors?: Array<{ field: string; message: string }>; detail?: string };
  const key = field.split(".").at(-1) ?? field;
  const named = (problem.errors ?? []).some((error) => {
    const path = error.field.replace(/^line \d+:?\s*/, "").replace(/\[(\d+)\]/g, ".$1");
    if (path === "") return false;
    return (
      path === field ||
      field.startsWith(`${path}.`) ||
      path.startsWith(`${field}.`) ||
      error.message.includes(key)
    );
  });
  const quoted =
    typeof value === "string" && value.length > 0 && (problem.detail ?? "").includes(`"${value}"`);
  return named || quoted;
}

function isProblem(response: Awaited<ReturnType<typeof call>>, method = "GET"): boolean {
  const body = response.body as Record<string, unknown> | null;
  const problemType = response.headers.get("content-type")?.includes("application/problem+json") ?? false;
  // A HEAD answer carries no body by HTTP: its headers say what the GET's body would be.
  if (method === "HEAD") return problemType && body === null;
  return (
    problemType &&
    body !== null &&
    typeof body === "object" &&
    ["type", "title", "status", "detail", "errors"].every((key) => key in body) &&
    body.status === response.status
  );
}

it(
  "answers 1,000+ malformed requests with 4xx problem+json and changes nothing",
  async () => {
    const before = await snapshotTables();
    const probes = ROUTES.flatMap(probesFor);
    expect(probes.length).toBeGreaterThanOrEqual(1000);
    const failures: string[] = [];
    const unnamed: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    // A bounded pool: CONCURRENCY requests in flight, the next one starting as soon as one answers.
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < probes.length) {
          const probe = probes[next++] as Probe;
          const response = await call(stack.url, probe.method, probe.path, {
            ...(probe.token ? { token: probe.token } : {}),
            ...(probe.headers ? { headers: probe.headers } : {}),
            ...(probe.body !== undefined ? { body: probe.body } : {}),
            ...(probe.contentType ? { contentType: probe.contentType } : {}),
          });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status < 400 || response.status >= 500 || !isProblem(response, probe.method)) {
            failures.push(`${probe.label} -> ${response.status} ${response.text.slice(0, 160)}`);
          } else if (
            probe.field &&
            (response.status === 400 || response.status === 422) &&
            !namesField(response.body, probe.field, probe.value)
          ) {
            unnamed.push(`${probe.label} -> ${response.text.slice(0, 200)}`);
          }
        }
      }),
    );
    expect(failures).toEqual([]);
    // Each one-field mutation answered 400 (or 422, unplaceable) was refused for that field, not for something else.
    expect(unnamed).toEqual([]);
    expect(changesBesidesRefusalRecords(before, await snapshotTables())).toEqual([]);
    // What the suite exercised, for the reader of the test log.
    process.stdout.write(
      `bad-input suite: ${probes.length} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`,
    );
  },
  scaled(300_000),
);

it(
  "accepts every sample unbroken, so the probes above each broke one thing of a valid body",
  async () => {
    const accepted = async (
      method: string,
      path: string,
      token: string,
      init: { json?: unknown; body?: string; contentType?: string },
    ) => {
      const response = await call(stack.url, method, path, { token, ...init });
      expect(response.status, `${method} ${path}: ${response.text}`).toBeGreaterThanOrEqual(200);
      expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
    };
    const owner = ownerToken();
    for (const route of ROUTES) {
      if (!route.body || route.roles === "public") continue;
      const path = fillPath(route.path, null, "");
      const token = tokenFor(route.roles[0] ?? "forwarder");
      for (const { sample } of sampleFor(route)) await accepted(route.method, path, token, { json: sample });
    }
    const carrier = carrierToken();
    await accepted("POST", "/carrier/messages", carrier, {
      body: samples.cargoImp().join("\n"),
      contentType: "text/plain",
    });
    await accepted("POST", "/carrier/messages", carrier, {
      body: samples.xfsu(),
      contentType: "application/xml",
    });
    // And ACMECARGO reads what FWD2 was refused.
    await accepted("GET", `${FFW}/eventconfignotifier/${real.ruleId}`, owner, {});
    await accepted("GET", `${FFW}/webhook/${real.webhookId}`, owner, {});
    await accepted("GET", `${FFW}/${AWB}`, owner, {});
  },
  scaled(60_000),
);
