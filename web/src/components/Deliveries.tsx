/** A rule's or webhook's delivery log: outcome, attempts, response status, and a Replay per delivery. */
import { useState } from "preact/hooks";
import { api, errorText, type ReplayResponse } from "../api.ts";
import { type Delivery, deliveryOutcome, deliveryResponseStatus } from "../lib/alerts.ts";
import { formatUtc } from "../lib/format.ts";
import { Pager, usePaged } from "./Paged.tsx";

export function Deliveries({ path, title, onClose }: { path: string; title: string; onClose: () => void }) {
  const {
    page,
    setPage,
    data: log,
    error,
    setError,
    reload: load,
  } = usePaged<Delivery>(`${path}/deliveries`, 20);
  const [message, setMessage] = useState<string | null>(null);

  const replay = async (delivery: Delivery) => {
    setMessage(null);
    try {
      const answer = await api<ReplayResponse>(
        "POST",
        `${path}/deliveries/${encodeURIComponent(delivery.DeliveryId)}/replay`,
      );
      setMessage(
        `Replay of ${delivery.Event} for ${delivery.AwbNumber} queued as attempt ${answer.ReplayAttempt}.`,
      );
      await load();
    } catch (reason) {
      setError(errorText(reason));
    }
  };

  return (
    <section class="card deliveries" aria-labelledby="deliveries-title">
      <div class="section-head">
        <h3 id="deliveries-title">{title}</h3>
        <button type="button" class="secondary" onClick={() => void load()}>
          Reload
        </button>
        <button type="button" class="secondary" onClick={onClose}>
          Close log
        </button>
      </div>
      <p role="status" class="notice-slot">
        {message}
      </p>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {log && log.Items.length === 0 ? <p class="muted">No deliveries in the last 30 days.</p> : null}
      {log && log.Items.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Outcome</th>
                <th scope="col">Attempts</th>
                <th scope="col">Response status</th>
                <th scope="col">Last change</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {log.Items.map((delivery) => (
                <tr key={delivery.DeliveryId}>
                  <th scope="row">
                    {delivery.Event} · {delivery.AwbNumber}
                  </th>
                  <td>
                    <span class={`chip chip-outcome chip-${deliveryOutcome(delivery)}`}>
                      {deliveryOutcome(delivery)}
                    </span>
                    {delivery.Attempts.at(-1)?.Detail ? (
                      <div class="muted detail">{delivery.Attempts.at(-1)?.Detail.slice(0, 120)}</div>
                    ) : null}
                  </td>
                  <td>{delivery.Attempts.length}</td>
                  <td>{deliveryResponseStatus(delivery)}</td>
                  <td>{formatUtc(delivery.UpdatedAt)}</td>
                  <td>
                    <button type="button" class="secondary" onClick={() => void replay(delivery)}>
                      Replay
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager page={page} totalPages={log?.TotalPages ?? 1} onPage={setPage} label="Delivery pages" />
    </section>
  );
}
