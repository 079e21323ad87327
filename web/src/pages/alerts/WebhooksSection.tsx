/**
 * The forwarder's webhooks: list, create (its secrets shown once), edit, enable/disable, verify,
 * delete, delivery log.
 */
import { useState } from "preact/hooks";
import { api, FFW } from "../../api.ts";
import { Deliveries } from "../../components/Deliveries.tsx";
import { ListTable } from "../../components/ListTable.tsx";
import { usePaged } from "../../components/Paged.tsx";
import {
  NEW_WEBHOOK,
  WEBHOOK_FIELDS,
  type Webhook,
  webhookBody,
  webhookSummary,
  webhookToForm,
  webhookToggled,
} from "../../lib/alerts.ts";
import { formatUtc } from "../../lib/format.ts";
import { type Editing, Editor } from "./Editor.tsx";
import { EnabledChip, rowAction, type Say, SubscriptionSection } from "./section.tsx";

const WEBHOOKS = `${FFW}/webhook`;
const PAGE_SIZE = 50;

function verificationText(hook: Webhook): string {
  if (hook.Verified) return "Verified";
  return hook.LastVerification?.Outcome === "failed" ? "Failed" : "Not verified";
}

function lastDeliveryText({ LastDelivery: last }: Webhook): string {
  if (!last) return "none";
  return `${last.Status}${last.HttpStatus ? ` (${last.HttpStatus})` : ""}, ${formatUtc(last.At)}`;
}

export function WebhooksSection({ say }: { say: Say }) {
  const hooks = usePaged<Webhook>(WEBHOOKS, PAGE_SIZE);
  const [editing, setEditing] = useState<Editing<Webhook>>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  const [secrets, setSecrets] = useState<Webhook | null>(null);
  const act = rowAction(hooks, say);
  return (
    <SubscriptionSection
      id="webhooks"
      title="Webhooks"
      newLabel="New webhook"
      onNew={() => setEditing({ kind: "new" })}
      description="Your systems receive the events as signed HTTP calls."
    >
      {editing ? (
        <Editor
          key={editing.kind === "edit" ? editing.item.Id : "new"}
          formId="webhook-form"
          title={editing.kind === "edit" ? `Edit webhook ${editing.item.Id}` : "New webhook"}
          fields={WEBHOOK_FIELDS}
          initial={editing.kind === "edit" ? webhookToForm(editing.item) : NEW_WEBHOOK}
          onCancel={() => setEditing(null)}
          save={async (values) => {
            const body = webhookBody(values);
            if (editing.kind === "edit") {
              await api("PUT", `${WEBHOOKS}/${editing.item.Id}`, body);
              say(`Webhook ${editing.item.Id} saved.`);
            } else {
              const created = await api<Webhook>("POST", WEBHOOKS, body);
              setSecrets(created.Token || created.Psk ? created : null);
              say(`Webhook ${created.Id} created.`);
            }
            setEditing(null);
            await hooks.reload();
          }}
          render={(field) => (
            <>
              {field("Event", { hint: "Comma-separated milestones, e.g. DEP,ARR" })}
              {field("Url", { kind: "url", hint: "https://… of your receiver" })}
              {field("Type", { kind: "select", options: ["json", "xml", "text"] })}
              {field("AWB", { hint: "One AWB (020-12345675), or empty for all" })}
              {field("Token", { hint: "Bearer token sent to your receiver (optional)" })}
              {field("Psk", { hint: "Signing secret (optional)" })}
              {field("Enable", { kind: "checkbox" })}
            </>
          )}
        />
      ) : null}
      {secrets ? (
        <div class="notice" role="status">
          <p>
            Webhook {secrets.Id}: copy its secrets now, they are shown only once.
            {secrets.Token ? ` Token: ${secrets.Token}` : ""}
            {secrets.Psk ? ` Psk: ${secrets.Psk}` : ""}
          </p>
          <button type="button" class="secondary" onClick={() => setSecrets(null)}>
            Done
          </button>
        </div>
      ) : null}
      <ListTable
        list={hooks}
        rowKey={(hook) => hook.Id}
        empty="No webhooks yet."
        pagerLabel="Webhook pages"
        columns={[
          { title: "Webhook", cell: (hook) => hook.Id },
          { title: "Url", cell: (hook) => hook.Url, class: "url" },
          { title: "Events", cell: webhookSummary },
          { title: "State", cell: (hook) => <EnabledChip enabled={hook.Enabled} /> },
          {
            title: "Verification",
            cell: (hook) => (
              <>
                {verificationText(hook)}
                {hook.LastVerification?.Detail ? (
                  <div class="muted detail">{hook.LastVerification.Detail}</div>
                ) : null}
              </>
            ),
          },
          { title: "Last delivery", cell: lastDeliveryText },
        ]}
        actions={(hook) => (
          <>
            <button type="button" class="secondary" onClick={() => setEditing({ kind: "edit", item: hook })}>
              Edit
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() =>
                void act(
                  () => api("PUT", `${WEBHOOKS}/${hook.Id}`, webhookToggled(hook, !hook.Enabled)),
                  `Webhook ${hook.Id} ${hook.Enabled ? "disabled" : "enabled"}.`,
                )
              }
            >
              {hook.Enabled ? "Disable" : "Enable"}
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() =>
                void act(async () => {
                  const answer = await api<Webhook>("POST", `${WEBHOOKS}/${hook.Id}/verify`);
                  if (!answer.Verified)
                    throw new Error(
                      `Webhook ${hook.Id} not verified: ${answer.LastVerification?.Detail ?? "no valid answer"}.`,
                    );
                }, `Webhook ${hook.Id} verified.`)
              }
            >
              Verify
            </button>
            <button type="button" class="secondary" onClick={() => setLog(hook)}>
              Deliveries
            </button>
            <button
              type="button"
              class="danger"
              onClick={() =>
                void act(() => api("DELETE", `${WEBHOOKS}/${hook.Id}`), `Webhook ${hook.Id} deleted.`)
              }
            >
              Delete
            </button>
          </>
        )}
      />
      {log ? (
        <Deliveries
          key={log.Id}
          path={`${WEBHOOKS}/${log.Id}`}
          title={`Deliveries of webhook ${log.Id}`}
          onClose={() => setLog(null)}
        />
      ) : null}
    </SubscriptionSection>
  );
}
