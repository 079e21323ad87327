/** Fixtures shared by the notifications tests. */
import type { DomainEvent } from "../../../functions/core/events.ts";
import type { SubscriberIdentity } from "../../../functions/core/notifications/index.ts";

export const OWNER: SubscriberIdentity = {
  forwarderId: "FWDOWNERX",
  agentCode: "1234567",
  agentCass: "0001",
  agentStation: "FRA",
};
export const XTD: SubscriberIdentity = {
  forwarderId: "FWDXTDXXX",
  agentCode: "7654321",
  agentCass: "0002",
  agentStation: "JFK",
};
export const STRANGER: SubscriberIdentity = {
  forwarderId: "FWDSTRANG",
  agentCode: "5555555",
  agentCass: "0003",
  agentStation: "CDG",
};

export const NOW = "2026-03-14T12:00:00Z";
export const ENDPOINT_GUID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";

export function makeEvent(overrides: Partial<DomainEvent> = {}): DomainEvent {
  return {
    eventId: "evt-0001",
    recordedAt: "2026-03-14T12:41:30Z",
    version: 3,
    audience: { ownerAgent: { code: OWNER.agentCode, cass: OWNER.agentCass }, xtdForwarders: [] },
    name: "DEP",
    type: "Event",
    eventStatus: "Update",
    awb: { prefix: "020", serial: "12345675" },
    station: "FRA",
    origin: "FRA",
    destination: "JFK",
    flight: { carrierCode: "LH", flightNumber: "400" },
    piecesReported: 10,
    totalPieces: 10,
    weightReported: 250,
    weightCode: "K",
    reported: { Utc: "2026-03-14T12:41:00Z", Local: "2026-03-14T13:41:00" },
    planned: { Utc: "2026-03-14T13:25:00Z", Local: "2026-03-14T14:25:00" },
    isRM: true,
    milestoneKey: "FRA:DEP",
    ...overrides,
  };
}

export function emailRuleBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ChannelType: "Email",
    NotifyTo: "ops@forwarder.example",
    HeaderItems: "AWB,MIL,NTF",
    FormatType: "Html",
    AirlinePrefix: "*",
    AwbNumber: "",
    Event: "DEP,ARR,NFD,DLV",
    EventAlert: true,
    MissedEventAlert: false,
    ProActiveAlert: false,
    ProActiveTime: 0,
    Destination: "",
    Enabled: true,
    ...overrides,
  };
}

export function urlRuleBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return emailRuleBody({
    ChannelType: "Url",
    NotifyTo: ENDPOINT_GUID,
    HeaderItems: "",
    FormatType: "Json",
    ...overrides,
  });
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export function makeJwt(
  header: unknown = { alg: "HS256", typ: "JWT" },
  payload: unknown = { sub: "x" },
): string {
  return `${b64url(header)}.${b64url(payload)}.c2lnbmF0dXJl`;
}

export function webhookBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Event: "DEP,ARR,RMP",
    Url: "https://hooks.forwarder.example/routemap",
    Enable: true,
    Type: "json",
    AWB: "",
    ...overrides,
  };
}
