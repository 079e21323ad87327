/**
 * The rule setting ShareLinkHours (our extension): an Email rule's e-mails link the route map
 * through a share link valid that many hours (1-720, like POST …/share); null or absent (the default)
 * links the signed-in web app. Url rules carry no links, so only null is accepted there.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  NotificationRuleRequestSchema,
  ruleFromRequest,
  ruleToApi,
  validateRuleRequest,
} from "../../../functions/core/notifications/index.ts";
import { emailRuleBody, OWNER, urlRuleBody } from "./helpers.ts";

const unchecked = { isRegisteredEndpoint: null };
const errorsOf = (body: Record<string, unknown>) => {
  const result = validateRuleRequest(body, unchecked);
  return result.ok ? [] : result.errors;
};
const stored = (body: Record<string, unknown>) =>
  ruleFromRequest(v.parse(NotificationRuleRequestSchema, body), {
    id: 1,
    owner: OWNER,
    now: "2026-03-14T00:00:00Z",
  });

describe("ShareLinkHours", () => {
  it("is off by default: absent and null are the same, and the response says null", () => {
    expect(stored(emailRuleBody()).shareLinkHours).toBeNull();
    expect(stored(emailRuleBody({ ShareLinkHours: null })).shareLinkHours).toBeNull();
    expect(ruleToApi(stored(emailRuleBody())).ShareLinkHours).toBeNull();
  });

  it.each([1, 48, 720])("accepts %i hours on an Email rule and echoes it", (hours) => {
    const rule = stored(emailRuleBody({ ShareLinkHours: hours }));
    expect(rule.shareLinkHours).toBe(hours);
    expect(ruleToApi(rule).ShareLinkHours).toBe(hours);
  });

  it.each([0, 721, -5, 1.5, "48", true])("refuses %j naming the field", (value) => {
    expect(errorsOf(emailRuleBody({ ShareLinkHours: value }))).toEqual([
      {
        field: "ShareLinkHours",
        message: "must be a whole number of hours from 1 to 720, or null for a link to the signed-in web app",
      },
    ]);
  });

  it("Url rules send no e-mail, so no link: only null", () => {
    expect(errorsOf(urlRuleBody({ ShareLinkHours: null }))).toEqual([]);
    expect(errorsOf(urlRuleBody({ ShareLinkHours: 24 }))).toEqual([
      { field: "ShareLinkHours", message: "must be null for Url rules (only e-mails carry links)" },
    ]);
  });

  it("a rule stored before share links existed (no member at all) answers null", () => {
    const { shareLinkHours: _dropped, ...old } = stored(emailRuleBody({ ShareLinkHours: 12 }));
    expect(ruleToApi(old).ShareLinkHours).toBeNull();
  });

  it("a GET body echoed into a PUT keeps the setting", () => {
    const api = ruleToApi(stored(emailRuleBody({ ShareLinkHours: 72 })));
    const again = validateRuleRequest(api, unchecked);
    expect(again.ok && again.value.ShareLinkHours).toBe(72);
  });
});
