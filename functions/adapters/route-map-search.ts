/**
 * Search on the RouteMaps table's byReader index (readerKey = `AGT#<code>#<cass>` or
 * `FWD#<forwarderId>`, readerSort = `<CreationDate UTC>#<awb11>`, written with every change by
 * route-map-repository.ts, each reader item carrying the denormalised search fields):
 *   queryReaders  every match of one reader key up to a limit (the proactive sweep's pages);
 *   readerPage    one bounded Query of one reader key from a position, in either direction: what a
 *                 search page reads, merged across the caller's keys by the search use case.
 * The CreationDate range and the position are the key condition; every other filter is a filter
 * expression. Query only: never a Scan.
 */
import { type NativeAttributeValue, QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type {
  ReaderIndexPosition,
  ReaderQuery,
  RouteMapSearchFields,
  RouteMapSearchFilters,
  RouteMapSearchIndex,
  SearchRange,
} from "../core/ports/route-maps.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";

type Item = Record<string, NativeAttributeValue>;

export const READER_INDEX = "byReader";
const SEARCH_ATTRIBUTES = [
  "AirlinePrefix",
  "AwbNumber",
  "Origin",
  "Destination",
  "Status",
  "CreationDate",
  "DeliveryDate",
  "ReceiptDate",
] as const;
/** Every attribute goes through a name placeholder: some (Status) are DynamoDB reserved words. */
const SEARCH_NAMES = Object.fromEntries(SEARCH_ATTRIBUTES.map((name) => [`#${name}`, name]));
const SEARCH_PROJECTION = SEARCH_ATTRIBUTES.map((name) => `#${name}`).join(", ");

function searchFieldsOf(item: Item): RouteMapSearchFields {
  return {
    AirlinePrefix: item.AirlinePrefix as string,
    AwbNumber: item.AwbNumber as string,
    Origin: item.Origin as string,
    Destination: item.Destination as string,
    Status: item.Status as RouteMapSearchFields["Status"],
    CreationDate: item.CreationDate as string,
    DeliveryDate: (item.DeliveryDate as string | undefined) ?? null,
    ReceiptDate: (item.ReceiptDate as string | undefined) ?? null,
  };
}

/** Builds the filter expression for everything the key condition does not cover. */
function filterExpression(filters: RouteMapSearchFilters) {
  const parts: string[] = [];
  const values: Record<string, NativeAttributeValue> = {};
  const equal = (attribute: string, value: string | null) => {
    if (value === null) return;
    parts.push(`#${attribute} = :${attribute}`);
    values[`:${attribute}`] = value;
  };
  const range = (attribute: string, r: SearchRange | null) => {
    if (r === null) return;
    parts.push(`attribute_exists(#${attribute})`);
    if (r.from !== null) {
      parts.push(`#${attribute} >= :${attribute}From`);
      values[`:${attribute}From`] = r.from;
    }
    if (r.to !== null) {
      parts.push(`#${attribute} <= :${attribute}To`);
      values[`:${attribute}To`] = r.to;
    }
  };
  equal("AirlinePrefix", filters.airlinePrefix);
  equal("AwbNumber", filters.awbNumber);
  equal("Origin", filters.origin);
  equal("Destination", filters.destination);
  range("DeliveryDate", filters.deliveryDate);
  range("ReceiptDate", filters.receiptDate);
  if (filters.statuses !== null) {
    const placeholders = filters.statuses.map((status, i) => {
      values[`:status${i}`] = status;
      return `:status${i}`;
    });
    parts.push(
      placeholders.length > 0 ? `#Status IN (${placeholders.join(", ")})` : "attribute_not_exists(pk)",
    );
  }
  return { expression: parts.join(" AND "), values };
}

/** readerSort as route-map-repository.ts writes it. */
const readerSortOf = (position: ReaderIndexPosition) => `${position.creationDate}#${position.awb11}`;

function positionOf(readerSort: string): ReaderIndexPosition {
  const hash = readerSort.lastIndexOf("#");
  return { creationDate: readerSort.slice(0, hash), awb11: readerSort.slice(hash + 1) };
}

/**
 * The key condition of one reader key: the CreationDate range and the position as inclusive bounds
 * on readerSort (one condition on a sort key is all DynamoDB takes). Every readerSort has the same
 * shape, `<instant>#<11 digits>`, so "strictly before X" is "at most X with its last digit one lower,
 * then ~" and "strictly after X" is "at least X!". null = the range holds nothing.
 */
function keyCondition(
  readerKey: string,
  creation: SearchRange | null,
  after: ReaderIndexPosition | null,
  descending: boolean,
): { expression: string; values: Record<string, string> } | null {
  let low = creation?.from ?? null;
  // "~" sorts after every "#<awb>" suffix, so the To instant itself is included.
  let high = creation?.to ? `${creation.to}~` : null;
  if (after) {
    const sort = readerSortOf(after);
    if (descending) {
      const below = `${sort.slice(0, -1)}${String.fromCharCode(sort.charCodeAt(sort.length - 1) - 1)}~`;
      high = high === null || below < high ? below : high;
    } else {
      const above = `${sort}!`;
      low = low === null || above > low ? above : low;
    }
  }
  const values: Record<string, string> = { ":readerKey": readerKey };
  if (low !== null && high !== null) {
    // BETWEEN with its bounds reversed is a DynamoDB error; the range is empty.
    if (high < low) return null;
    return {
      expression: "readerKey = :readerKey AND readerSort BETWEEN :low AND :high",
      values: { ...values, ":low": low, ":high": high },
    };
  }
  if (low !== null)
    return {
      expression: "readerKey = :readerKey AND readerSort >= :low",
      values: { ...values, ":low": low },
    };
  if (high !== null)
    return {
      expression: "readerKey = :readerKey AND readerSort <= :high",
      values: { ...values, ":high": high },
    };
  return { expression: "readerKey = :readerKey", values };
}

function queryInput(
  tableName: string,
  key: { expression: string; values: Record<string, string> },
  filters: RouteMapSearchFilters,
  descending: boolean,
): QueryCommandInput {
  const filter = filterExpression(filters);
  return {
    TableName: tableName,
    IndexName: READER_INDEX,
    KeyConditionExpression: key.expression,
    ...(filter.expression ? { FilterExpression: filter.expression } : {}),
    ExpressionAttributeValues: { ...key.values, ...filter.values },
    ExpressionAttributeNames: SEARCH_NAMES,
    ProjectionExpression: SEARCH_PROJECTION,
    ScanIndexForward: !descending,
  };
}

/**
 * Search fields of the AWBs one reader key may read, newest creation first, at most `query.limit`
 * (the proactive sweep pages with it).
 */
export async function queryReaders(tableName: string, query: ReaderQuery): Promise<RouteMapSearchFields[]> {
  const key = keyCondition(query.readerKey, query.filters.creationDate, null, true);
  if (key === null) return [];
  const input = queryInput(tableName, key, query.filters, true);
  const items: Item[] = [];
  let startKey: Record<string, NativeAttributeValue> | undefined;
  do {
    const page = await dynamo().send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...((page.Items as Item[] | undefined) ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < query.limit);
  return items.slice(0, query.limit).map(searchFieldsOf);
}

export function dynamoRouteMapSearch(tableName = config.table("routeMaps")): RouteMapSearchIndex {
  return {
    async readerPage(query) {
      const key = keyCondition(query.readerKey, query.filters.creationDate, query.after, query.descending);
      if (key === null) return { matches: [], resumeAfter: null };
      const page = await dynamo().send(
        new QueryCommand({
          ...queryInput(tableName, key, query.filters, query.descending),
          Limit: query.limit,
        }),
      );
      const last = page.LastEvaluatedKey?.readerSort as string | undefined;
      return {
        matches: ((page.Items as Item[] | undefined) ?? []).map(searchFieldsOf),
        resumeAfter: last === undefined ? null : positionOf(last),
      };
    },
  };
}
