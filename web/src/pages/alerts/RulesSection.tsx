/** The forwarder's notification rules: list, create, edit, enable/disable, delete, delivery log. */
import { useState } from "preact/hooks";
import { api, FFW } from "../../api.ts";
import { Deliveries } from "../../components/Deliveries.tsx";
import { ListTable } from "../../components/ListTable.tsx";
import { usePaged } from "../../components/Paged.tsx";
import {
  NEW_RULE,
  RULE_FIELDS,
  type Rule,
  ruleAlertText,
  ruleBody,
  ruleSummary,
  ruleToForm,
} from "../../lib/alerts.ts";
import { type Editing, Editor } from "./Editor.tsx";
import { EnabledChip, rowAction, type Say, SubscriptionSection } from "./section.tsx";

const RULES = `${FFW}/eventconfignotifier`;
const PAGE_SIZE = 50;

export function RulesSection({ say }: { say: Say }) {
  const rules = usePaged<Rule>(RULES, PAGE_SIZE);
  const [editing, setEditing] = useState<Editing<Rule>>(null);
  const [log, setLog] = useState<Rule | null>(null);
  const act = rowAction(rules, say);
  return (
    <SubscriptionSection
      id="rules"
      title="Rules"
      newLabel="New rule"
      onNew={() => setEditing({ kind: "new" })}
      description="E-mails or calls to your customer endpoints when a milestone is reported, missed or due."
    >
      {editing ? (
        <Editor
          key={editing.kind === "edit" ? editing.item.Id : "new"}
          formId="rule-form"
          title={editing.kind === "edit" ? `Edit rule ${editing.item.Id}` : "New rule"}
          fields={RULE_FIELDS}
          initial={editing.kind === "edit" ? ruleToForm(editing.item) : NEW_RULE}
          onCancel={() => setEditing(null)}
          save={async (values) => {
            const body = ruleBody(values);
            if (editing.kind === "edit") await api("PUT", `${RULES}/${editing.item.Id}`, body);
            else await api("POST", RULES, body);
            setEditing(null);
            say(editing.kind === "edit" ? `Rule ${editing.item.Id} saved.` : "Rule created.");
            await rules.reload();
          }}
          render={(field) => (
            <>
              {field("ChannelType", { kind: "select", options: ["Email", "Url"] })}
              {field("NotifyTo", { hint: "An e-mail address, or a customer endpoint's Id for Url rules" })}
              {field("HeaderItems", { hint: "E-mail subject items, e.g. AWB,MIL,NTF" })}
              {field("FormatType", { kind: "select", options: ["Html", "Json"] })}
              {field("AirlinePrefix", { hint: "3 digits, or * for every carrier" })}
              {field("AwbNumber", { hint: "8 digits, or empty for every AWB" })}
              {field("Event", { hint: "Comma-separated milestones, e.g. DEP,ARR" })}
              {field("EventAlert", { kind: "checkbox" })}
              {field("MissedEventAlert", { kind: "checkbox" })}
              {field("ProActiveAlert", { kind: "checkbox" })}
              {field("ProActiveTime", {
                kind: "number",
                hint: "Proactive alerts: minutes after the planned time without a report",
              })}
              {field("Origin", { hint: "Station, or empty" })}
              {field("Destination", { hint: "Station, or empty" })}
              {field("Enabled", { kind: "checkbox" })}
              {field("ShareLinkHours", {
                kind: "number",
                hint: "E-mail rules: the e-mail's route-map link opens without sign-in for this many hours (1-720); empty links the app",
              })}
            </>
          )}
        />
      ) : null}
      <ListTable
        list={rules}
        rowKey={(rule) => rule.Id}
        empty="No rules yet."
        pagerLabel="Rule pages"
        columns={[
          { title: "Rule", cell: (rule) => rule.Id },
          { title: "Notify", cell: (rule) => `${rule.ChannelType}: ${rule.NotifyTo}` },
          { title: "Events", cell: ruleSummary },
          { title: "Alert", cell: ruleAlertText },
          { title: "State", cell: (rule) => <EnabledChip enabled={rule.Enabled} /> },
        ]}
        actions={(rule) => (
          <>
            <button type="button" class="secondary" onClick={() => setEditing({ kind: "edit", item: rule })}>
              Edit
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() =>
                void act(
                  () => api("POST", `${RULES}/${rule.Id}/${rule.Enabled ? "disable" : "enable"}`),
                  `Rule ${rule.Id} ${rule.Enabled ? "disabled" : "enabled"}.`,
                )
              }
            >
              {rule.Enabled ? "Disable" : "Enable"}
            </button>
            <button type="button" class="secondary" onClick={() => setLog(rule)}>
              Deliveries
            </button>
            <button
              type="button"
              class="danger"
              onClick={() => void act(() => api("DELETE", `${RULES}/${rule.Id}`), `Rule ${rule.Id} deleted.`)}
            >
              Delete
            </button>
          </>
        )}
      />
      {log ? (
        <Deliveries
          key={log.Id}
          path={`${RULES}/${log.Id}`}
          title={`Deliveries of rule ${log.Id}`}
          onClose={() => setLog(null)}
        />
      ) : null}
    </SubscriptionSection>
  );
}
