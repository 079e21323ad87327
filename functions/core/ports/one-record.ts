/** Reading a carrier's ONE Record server: GET of a LogisticsEvent or a LogisticsObject's events. */

export type PublisherFetchResult =
  /** A 2xx answer and its body (JSON-LD). */
  | { kind: "ok"; body: string }
  /** The SSRF guard refused the address: nothing was sent. */
  | { kind: "refused"; reason: string }
  /** Unreachable, too slow, an answer too large, or a non-2xx status (`status`, when it answered). */
  | { kind: "failed"; status: number | null; reason: string };

export interface OneRecordPublisher {
  /** GET `url` with `Accept: application/ld+json` and, when given, `Authorization: Bearer <token>`. */
  fetch(url: string, token: string | null): Promise<PublisherFetchResult>;
}
