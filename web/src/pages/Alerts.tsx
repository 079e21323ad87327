/**
 * Alerts: the forwarder's notification rules and webhooks (create, edit, enable/disable, verify,
 * delete, delivery log with replay) and, read-only, its customer endpoints (the GUIDs Url rules name).
 * Each section is in pages/alerts/; their lists share one table frame (components/ListTable.tsx).
 */
import { useState } from "preact/hooks";
import { CustomerEndpointsSection } from "./alerts/CustomerEndpointsSection.tsx";
import { RulesSection } from "./alerts/RulesSection.tsx";
import { WebhooksSection } from "./alerts/WebhooksSection.tsx";

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
