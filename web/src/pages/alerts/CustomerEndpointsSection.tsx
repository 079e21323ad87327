/** The forwarder's customer endpoints (the GUIDs its Url rules name): registered by support, read-only here. */
import { type CustomerEndpointResponse, FFW } from "../../api.ts";
import { ListTable } from "../../components/ListTable.tsx";
import { usePaged } from "../../components/Paged.tsx";

const PAGE_SIZE = 50;

export function CustomerEndpointsSection() {
  const endpoints = usePaged<CustomerEndpointResponse>(`${FFW}/customer-endpoints`, PAGE_SIZE);
  return (
    <section class="alerts-section" aria-labelledby="endpoints-title">
      <h2 id="endpoints-title">Customer endpoints</h2>
      <p class="muted">Registered by support; a Url rule's NotifyTo names one by its Id. Read-only here.</p>
      <ListTable
        list={endpoints}
        rowKey={(endpoint) => endpoint.Id}
        empty="No customer endpoints."
        pagerLabel="Customer endpoint pages"
        columns={[
          { title: "Id", cell: (endpoint) => endpoint.Id, class: "mono wrap" },
          { title: "Url", cell: (endpoint) => endpoint.Url, class: "url" },
          { title: "Header", cell: (endpoint) => `${endpoint.HeaderName}: ${endpoint.HeaderValue}` },
        ]}
      />
    </section>
  );
}
