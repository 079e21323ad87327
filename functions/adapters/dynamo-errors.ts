/**
 * What a refused DynamoDB write means, for every DynamoDB adapter: a condition that failed (the item
 * exists, the version moved), a transaction that lost to a concurrent one, or a change too large to
 * store. Single writes throw ConditionalCheckFailedException; a transaction throws
 * TransactionCanceledException with one cancellation reason per item.
 */

interface CancellationReason {
  Code?: string;
  Message?: string;
}

/** The cancellation reasons of a refused transaction, or null for any other error. */
function cancellationReasons(error: unknown): CancellationReason[] | null {
  if (!(error instanceof Error) || error.name !== "TransactionCanceledException") return null;
  return (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
}

/** True when a condition of the write (or of an item of the transaction) failed. */
export function isConditionFailure(error: unknown): boolean {
  if (error instanceof Error && error.name === "ConditionalCheckFailedException") return true;
  return (cancellationReasons(error) ?? []).some((reason) => reason.Code === "ConditionalCheckFailed");
}

/**
 * True when a write lost to a concurrent writer: a condition failed, or the transaction collided with
 * another one on the same item (TransactionConflict). Reload and retry.
 */
export function isWriteConflict(error: unknown): boolean {
  if (isConditionFailure(error)) return true;
  return (cancellationReasons(error) ?? []).some((reason) => reason.Code === "TransactionConflict");
}

const SIZE_LIMIT_RE = /size (?:has )?exceeded|exceeds? the maximum/i;

/** True when DynamoDB refused the change for its size (an item over 400 KB, a transaction over 4 MB). */
export function isTooLarge(error: unknown): boolean {
  if (error instanceof Error && error.name === "ValidationException")
    return SIZE_LIMIT_RE.test(error.message);
  return (cancellationReasons(error) ?? []).some(
    (reason) => reason.Code === "ValidationError" && SIZE_LIMIT_RE.test(reason.Message ?? ""),
  );
}
