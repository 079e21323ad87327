/**
 * What the ONE Record server's handlers share: answers as JSON-LD with the headers the API names
 * (Type, Revision, Latest-Revision, Last-Modified, Content-Language), refusals as problems, and the
 * server's base URL as the caller reached it.
 */

import { CONTENT_LANGUAGE, JSON_LD } from "../core/one-record-server/vocabulary.ts";
import type { ReadAnswer } from "../core/use-cases/read-one-record.ts";
import { ProblemError } from "./problems.ts";
import type { HttpResult } from "./request.ts";

/** The ONE Record base under the API's public URL: ids name it, so they are the same on both paths. */
export const oneRecordLinks = (baseUrl: string) => ({ base: `${baseUrl}/onerecord` });

export const httpDate = (iso: string) => new Date(Date.parse(iso)).toUTCString();

export const jsonLdHeaders = (extra: Record<string, string> = {}) => ({
  "content-type": JSON_LD,
  "content-language": CONTENT_LANGUAGE,
  ...extra,
});

/** The use case's answer as HTTP; a refusal throws its problem (403, 404). */
export function answer(result: ReadAnswer, withBody = true): HttpResult {
  switch (result.kind) {
    case "redirect":
      return { status: 307, headers: { location: result.location } };
    case "not-found":
      throw new ProblemError(404, "not-found", result.detail);
    case "forbidden":
      throw new ProblemError(403, "forbidden", result.detail);
    case "ok":
      return {
        status: 200,
        ...(withBody ? { body: result.body } : {}),
        headers: jsonLdHeaders({
          type: result.type,
          revision: String(result.revision),
          "latest-revision": String(result.latestRevision),
          "last-modified": httpDate(result.lastModified),
        }),
      };
  }
}
