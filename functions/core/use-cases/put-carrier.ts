/**
 * Support stores a participating carrier's settings (whole record, stamped with `now`). The carrier is
 * then a tenant: its profile (enabled) is created with its first settings, so GET /support/carriers
 * lists it and its machine clients can be created.
 */
import type { CarrierSettings, OneRecordSettings } from "../carriers.ts";
import { InvalidFieldsError } from "../errors.ts";
import { resolveSentSecret } from "../notifications/common.ts";
import type { CarrierRepository } from "../ports/carriers.ts";
import type { TargetChecker } from "../ports/notifications.ts";
import type { TenantRepository } from "../ports/tenants.ts";
import type { StatusRequestSettings } from "../status-requests.ts";
import { ensureCarrierTenant } from "./shared/tenants.ts";
import { ensureTargetAllowed } from "./shared/webhooks.ts";

export interface PutCarrierDeps {
  carriers: CarrierRepository;
  tenants: TenantRepository;
  /**
   * Status-request channels: the SSRF guard a Url must pass and the generator of its
   * Standard Webhooks signing secret. Required when StatusRequests names a Url.
   */
  statusRequestChannels?: { targets: TargetChecker; newSigningSecret(): string };
}

/** The stored settings, and the signing secret when this PUT generated one (shown only in its answer). */
export type PutCarrierResult = CarrierSettings & { newSigningSecret?: string };

export type CarrierSettingsInput = Omit<CarrierSettings, "airlinePrefix" | "updatedAt">;

export async function putCarrier(
  deps: PutCarrierDeps,
  input: { prefix: string; settings: CarrierSettingsInput; now: string },
): Promise<PutCarrierResult> {
  const { prefix, settings, now } = input;
  const statusRequests = await withSigningSecret(deps, prefix, settings.statusRequests ?? null);
  const carrier: CarrierSettings = {
    airlinePrefix: prefix,
    name: settings.name,
    qualityProgram: settings.qualityProgram,
    xtd: settings.xtd,
    updatedAt: now,
    planning: settings.planning,
    ...(settings.inboundSenders ? { inboundSenders: settings.inboundSenders } : {}),
  };
  if (statusRequests.settings) carrier.statusRequests = statusRequests.settings;
  const oneRecord = await withOneRecordToken(deps, prefix, settings.oneRecord ?? null);
  if (oneRecord) carrier.oneRecord = oneRecord;
  await deps.carriers.put(carrier);
  await ensureCarrierTenant(deps, prefix, now);
  return statusRequests.generated ? { ...carrier, newSigningSecret: statusRequests.generated } : carrier;
}

/**
 * A Url channel passes the SSRF guard (422 naming Url) and keeps its secret while the Url stays the
 * same; a new Url (or a first one) gets a new secret, returned once.
 */
async function withSigningSecret(
  deps: PutCarrierDeps,
  prefix: string,
  settings: StatusRequestSettings | null,
): Promise<{ settings: StatusRequestSettings | null; generated?: string }> {
  if (settings?.channel !== "Url") return { settings };
  const channels = deps.statusRequestChannels;
  if (!channels) throw new Error("put-carrier needs statusRequestChannels for a Url channel");
  await ensureTargetAllowed(channels.targets, settings.url ?? "");
  const previous = (await deps.carriers.get(prefix))?.statusRequests;
  if (previous?.channel === "Url" && previous.url === settings.url && previous.signingSecret)
    return { settings: { ...settings, signingSecret: previous.signingSecret } };
  const generated = channels.newSigningSecret();
  return { settings: { ...settings, signingSecret: generated }, generated };
}

/**
 * ONE Record publisher settings: the Token sent back masked (or absent) keeps the stored one
 * while ServerUrl stays the same; a new ServerUrl needs it again in full (or null), 400 otherwise.
 */
async function withOneRecordToken(
  deps: PutCarrierDeps,
  prefix: string,
  settings: OneRecordSettings | null,
): Promise<OneRecordSettings | null> {
  if (!settings) return null;
  const previous = (await deps.carriers.get(prefix))?.oneRecord ?? null;
  const resolved = resolveSentSecret(
    settings.token,
    previous?.token ?? null,
    previous !== null && previous.serverUrl !== settings.serverUrl,
  );
  if (!resolved.ok) throw new InvalidFieldsError([{ field: "OneRecord.Token", message: resolved.message }]);
  return { serverUrl: settings.serverUrl, token: resolved.value };
}
