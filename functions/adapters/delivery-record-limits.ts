/**
 * How much of a delivery's attempt log its record keeps: shared by the DynamoDB repository and the
 * memory one of the tests, in a leaf so the tests need not load the AWS SDK to read two numbers.
 */
/** Attempt log entries kept per delivery (7 scheduled attempts plus replays fit easily). */
export const MAX_LOGGED_ATTEMPTS = 20;
/** Characters of a response/error kept per attempt, so a record stays far below 400 KB. */
export const MAX_ATTEMPT_DETAIL = 1000;
