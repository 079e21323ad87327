/**
 * Status requests to carriers and the XTD usage ledger: the month query, the carrier's pull
 * queue items, support's request log entries and the usage answers.
 */
import * as v from "valibot";
import { formatAwb } from "../../core/awb.ts";
import type { PulledStatusRequest, UsageEntry } from "../../core/ports/carriers.ts";
import type { DeliveryRecord, PageRequest } from "../../core/ports/notifications.ts";
import { USAGE_MONTH_PATTERN } from "../../core/status-requests.ts";
import { AttemptSchema, deliveryBody } from "./notifications.ts";
import { PagingQuerySchema } from "./paging.ts";

/** `?month=YYYY-MM` (UTC), required, with the paging query. */
export const MonthQuerySchema = v.object({
  month: v.pipe(
    v.string("is required (YYYY-MM)"),
    v.regex(USAGE_MONTH_PATTERN, "must be a month as YYYY-MM"),
    v.description("The month, UTC, as YYYY-MM"),
  ),
  ...PagingQuerySchema.entries,
});

/** The same query as the use cases take it. */
export const MonthPageQuerySchema = v.pipe(
  MonthQuerySchema,
  v.transform((query): { month: string; page: PageRequest } => ({
    month: query.month,
    page: { page: query.CurrentPage, pageSize: query.PageSize },
  })),
);

export const PulledStatusRequestSchema = v.object({
  RequestId: v.pipe(v.string(), v.description("POST /carrier/requests/{RequestId}/ack removes it")),
  AwbNumber: v.string(),
  Format: v.picklist(["cargo-imp", "json"]),
  ContentType: v.string(),
  Message: v.pipe(
    v.string(),
    v.description("The FSR in the carrier's format (Cargo-IMP text or the JSON form)"),
  ),
  RequestedAt: v.string(),
  AvailableAt: v.string(),
});

export function pulledRequestBody(
  item: PulledStatusRequest,
): v.InferOutput<typeof PulledStatusRequestSchema> {
  return {
    RequestId: item.request.requestId,
    AwbNumber: formatAwb(item.request.awb),
    Format: item.format,
    ContentType: item.contentType,
    Message: item.body,
    RequestedAt: item.request.requestedAt,
    AvailableAt: item.availableAt,
  };
}

export const CarrierStatusRequestSchema = v.object({
  RequestId: v.string(),
  AwbNumber: v.string(),
  ForwarderIdentifier: v.pipe(v.string(), v.description("The forwarder whose sendsme created it")),
  IsXTD: v.boolean(),
  Status: v.picklist(["pending", "retrying", "delivered", "parked"]),
  CreatedAt: v.string(),
  UpdatedAt: v.string(),
  Attempts: v.pipe(v.array(AttemptSchema), v.description("Oldest first; the last 20 are kept")),
});

export function carrierStatusRequestBody(record: DeliveryRecord) {
  const { job } = record;
  const delivery = deliveryBody(record);
  return {
    RequestId: record.deliveryId,
    AwbNumber: delivery.AwbNumber,
    ForwarderIdentifier: record.forwarderId,
    IsXTD: job.kind === "status-request" ? job.request.isXtd : false,
    Status: record.status,
    CreatedAt: record.createdAt,
    UpdatedAt: record.updatedAt,
    Attempts: delivery.Attempts,
  };
}

export const CarrierStatusRequestReplaySchema = v.object({
  ...CarrierStatusRequestSchema.entries,
  ReplayAttempt: v.pipe(v.number(), v.description("Number of the attempt just queued")),
});

export const UsageEntrySchema = v.object({
  At: v.string(),
  AwbNumber: v.string(),
  RequestId: v.string(),
  Collapsed: v.pipe(
    v.boolean(),
    v.description("It collapsed into an earlier status request for the AWB: the carrier was not asked again"),
  ),
});

export const XtdUsageSchema = v.object({
  ForwarderIdentifier: v.string(),
  Month: v.string(),
  XtdRequests: v.pipe(
    v.number(),
    v.description("Every accepted XTD sendsme of the month, collapsed ones included"),
  ),
  TotalItems: v.number(),
  TotalPages: v.number(),
  PageSize: v.number(),
  CurrentPage: v.number(),
  Items: v.array(UsageEntrySchema),
});

export const usageEntryBody = (entry: UsageEntry) => ({
  At: entry.at,
  AwbNumber: formatAwb(entry.awb),
  RequestId: entry.requestId,
  Collapsed: entry.collapsed,
});

export const AllXtdUsageSchema = v.object({
  Month: v.string(),
  XtdRequests: v.pipe(v.number(), v.description("All forwarders together")),
  TotalItems: v.number(),
  TotalPages: v.number(),
  PageSize: v.number(),
  CurrentPage: v.number(),
  Items: v.array(v.object({ ForwarderIdentifier: v.string(), XtdRequests: v.number() })),
});
