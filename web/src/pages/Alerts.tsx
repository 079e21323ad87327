/**
 * Alerts: the forwarder's notification rules and webhooks (create, edit, enable/disable, verify,
 * delete, delivery log with replay) and, read-only, its customer endpoints (the GUIDs Url rules name).
 */
import { useState } from "preact/hooks";
import { ApiError, api, errorText, FFW, type FieldError } from "../api.ts";
import { Deliveries } from "../components/Deliveries.tsx";
import { Field, FormErrors } from "../components/Form.tsx";
import { Pager, usePaged } from "../components/Paged.tsx";
import {
  type FormValues,
  NEW_RULE,
  NEW_WEBHOOK,
  RULE_FIELDS,
  type Rule,
  ruleAlertText,
  ruleBody,
  ruleToForm,
  WEBHOOK_FIELDS,
  type Webhook,
  webhookBody,
  webhookToForm,
  webhookToggled,
} from "../lib/alerts.ts";
import { formatUtc } from "../lib/format.ts";

const RULES = `${FFW}/eventconfignotifier`;
const WEBHOOKS = `${FFW}/webhook`;
const PAGE_SIZE = 50;

interface CustomerEndpoint {
  Id: string;
  Url: string;
  HeaderName: string;
  HeaderValue: string;
}

interface EditorProps {
  formId: string;
  title: string;
  fields: readonly string[];
  initial: FormValues;
  render: (
    field: (name: string, options?: Partial<Parameters<typeof Field>[0]>) => preact.JSX.Element,
  ) => preact.JSX.Element;
  save: (values: FormValues) => Promise<void>;
  onCancel: () => void;
}

/** The one form of a rule or webhook: Save sends it; the API's field errors land on the fields. */
function Editor({ formId, title, fields, initial, render, save, onCancel }: EditorProps) {
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onChange = (name: string, value: string | boolean) =>
    setValues((current) => ({ ...current, [name]: value }));
  const field = (name: string, options: Partial<Parameters<typeof Field>[0]> = {}) => (
    <Field name={name} formId={formId} values={values} errors={errors} onChange={onChange} {...options} />
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await save(values);
      setErrors([]);
    } catch (reason) {
      setErrors(reason instanceof ApiError ? reason.fieldErrors : []);
      setProblem(errorText(reason));
      // The first field in error gets the focus, so the message is read where it applies.
      setTimeout(() => document.querySelector<HTMLElement>(`#${formId} [aria-invalid="true"]`)?.focus(), 0);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form id={formId} class="card editor" onSubmit={submit} aria-labelledby={`${formId}-title`} noValidate>
      <h3 id={`${formId}-title`}>{title}</h3>
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      <FormErrors errors={errors} known={fields} />
      <div class="editor-grid">{render(field)}</div>
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          Save
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type Editing<T> = { kind: "new" } | { kind: "edit"; item: T } | null;

function RulesSection({ say }: { say: (message: string) => void }) {
  const rules = usePaged<Rule>(RULES, PAGE_SIZE);
  const [editing, setEditing] = useState<Editing<Rule>>(null);
  const [log, setLog] = useState<Rule | null>(null);
  const act = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      say(done);
      await rules.reload();
    } catch (reason) {
      say(errorText(reason));
    }
  };
  return (
    <section class="alerts-section" aria-labelledby="rules-title">
      <div class="section-head">
        <h2 id="rules-title">Rules</h2>
        <button type="button" class="primary" onClick={() => setEditing({ kind: "new" })}>
          New rule
        </button>
      </div>
      <p class="muted">
        E-mails or calls to your customer endpoints when a milestone is reported, missed or due.
      </p>
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
              {field("ProActiveTime", { kind: "number", hint: "Minutes before due (proactive alerts)" })}
              {field("Origin", { hint: "Station, or empty" })}
              {field("Destination", { hint: "Station, or empty" })}
              {field("Enabled", { kind: "checkbox" })}
            </>
          )}
        />
      ) : null}
      {rules.error ? (
        <p class="error" role="alert">
          {rules.error}
        </p>
      ) : null}
      {rules.data && rules.data.Items.length === 0 ? <p class="empty">No rules yet.</p> : null}
      {rules.data && rules.data.Items.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Notify</th>
                <th scope="col">Events</th>
                <th scope="col">Alert</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.data.Items.map((rule) => (
                <tr key={rule.Id}>
                  <th scope="row">{rule.Id}</th>
                  <td>
                    {rule.ChannelType}: {rule.NotifyTo}
                  </td>
                  <td>
                    {rule.Event} · {rule.AirlinePrefix}
                    {rule.AwbNumber ? `-${rule.AwbNumber}` : ""}
                  </td>
                  <td>{ruleAlertText(rule)}</td>
                  <td>
                    <span class={`chip ${rule.Enabled ? "chip-ok" : "chip-planned"}`}>
                      {rule.Enabled ? "Enabled" : "Disabled"}
                    </span>
                  </td>
                  <td>
                    <div class="actions">
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => setEditing({ kind: "edit", item: rule })}
                      >
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
                        onClick={() =>
                          void act(() => api("DELETE", `${RULES}/${rule.Id}`), `Rule ${rule.Id} deleted.`)
                        }
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager
        page={rules.page}
        totalPages={rules.data?.TotalPages ?? 1}
        onPage={rules.setPage}
        label="Rule pages"
      />
      {log ? (
        <Deliveries
          key={log.Id}
          path={`${RULES}/${log.Id}`}
          title={`Deliveries of rule ${log.Id}`}
          onClose={() => setLog(null)}
        />
      ) : null}
    </section>
  );
}

function WebhooksSection({ say }: { say: (message: string) => void }) {
  const hooks = usePaged<Webhook>(WEBHOOKS, PAGE_SIZE);
  const [editing, setEditing] = useState<Editing<Webhook>>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  const [secrets, setSecrets] = useState<Webhook | null>(null);
  const act = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      say(done);
      await hooks.reload();
    } catch (reason) {
      say(errorText(reason));
    }
  };
  return (
    <section class="alerts-section" aria-labelledby="webhooks-title">
      <div class="section-head">
        <h2 id="webhooks-title">Webhooks</h2>
        <button type="button" class="primary" onClick={() => setEditing({ kind: "new" })}>
          New webhook
        </button>
      </div>
      <p class="muted">Your systems receive the events as signed HTTP calls.</p>
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
      {hooks.error ? (
        <p class="error" role="alert">
          {hooks.error}
        </p>
      ) : null}
      {hooks.data && hooks.data.Items.length === 0 ? <p class="empty">No webhooks yet.</p> : null}
      {hooks.data && hooks.data.Items.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Webhook</th>
                <th scope="col">Url</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">Verification</th>
                <th scope="col">Last delivery</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {hooks.data.Items.map((hook) => (
                <tr key={hook.Id}>
                  <th scope="row">{hook.Id}</th>
                  <td class="url">{hook.Url}</td>
                  <td>
                    {hook.Event} · {hook.Type}
                    {hook.AWB ? ` · ${hook.AWB}` : ""}
                  </td>
                  <td>
                    <span class={`chip ${hook.Enabled ? "chip-ok" : "chip-planned"}`}>
                      {hook.Enabled ? "Enabled" : "Disabled"}
                    </span>
                  </td>
                  <td>
                    {hook.Verified
                      ? "Verified"
                      : hook.LastVerification?.Outcome === "failed"
                        ? "Failed"
                        : "Not verified"}
                    {hook.LastVerification?.Detail ? (
                      <div class="muted detail">{hook.LastVerification.Detail}</div>
                    ) : null}
                  </td>
                  <td>
                    {hook.LastDelivery
                      ? `${hook.LastDelivery.Status}${hook.LastDelivery.HttpStatus ? ` (${hook.LastDelivery.HttpStatus})` : ""}, ${formatUtc(hook.LastDelivery.At)}`
                      : "none"}
                  </td>
                  <td>
                    <div class="actions">
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => setEditing({ kind: "edit", item: hook })}
                      >
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
                          void act(
                            () => api("DELETE", `${WEBHOOKS}/${hook.Id}`),
                            `Webhook ${hook.Id} deleted.`,
                          )
                        }
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager
        page={hooks.page}
        totalPages={hooks.data?.TotalPages ?? 1}
        onPage={hooks.setPage}
        label="Webhook pages"
      />
      {log ? (
        <Deliveries
          key={log.Id}
          path={`${WEBHOOKS}/${log.Id}`}
          title={`Deliveries of webhook ${log.Id}`}
          onClose={() => setLog(null)}
        />
      ) : null}
    </section>
  );
}

function CustomerEndpointsSection() {
  const endpoints = usePaged<CustomerEndpoint>(`${FFW}/customer-endpoints`, PAGE_SIZE);
  return (
    <section class="alerts-section" aria-labelledby="endpoints-title">
      <h2 id="endpoints-title">Customer endpoints</h2>
      <p class="muted">Registered by support; a Url rule's NotifyTo names one by its Id. Read-only here.</p>
      {endpoints.error ? (
        <p class="error" role="alert">
          {endpoints.error}
        </p>
      ) : null}
      {endpoints.data && endpoints.data.Items.length === 0 ? (
        <p class="empty">No customer endpoints.</p>
      ) : null}
      {endpoints.data && endpoints.data.Items.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Url</th>
                <th scope="col">Header</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.Items.map((endpoint) => (
                <tr key={endpoint.Id}>
                  <th scope="row" class="mono wrap">
                    {endpoint.Id}
                  </th>
                  <td class="url">{endpoint.Url}</td>
                  <td>
                    {endpoint.HeaderName}: {endpoint.HeaderValue}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager
        page={endpoints.page}
        totalPages={endpoints.data?.TotalPages ?? 1}
        onPage={endpoints.setPage}
        label="Customer endpoint pages"
      />
    </section>
  );
}

export function AlertsPage() {
  const [message, setMessage] = useState<string | null>(null);
  return (
    <>
      <h1>Alerts</h1>
      <p role="status" class="notice-slot">
        {message}
      </p>
      <RulesSection say={setMessage} />
      <WebhooksSection say={setMessage} />
      <CustomerEndpointsSection />
    </>
  );
}
