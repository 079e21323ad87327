/** A rule's or webhook's delivery log: outcome, attempts, response status, and a Replay per delivery. */
import { useState } from "preact/hooks";
import { api, errorText, type ReplayResponse } from "../api.ts";
import { type Delivery, deliveryOutcome, deliveryResponseStatus } from "../lib/alerts.ts";
import { formatAwb, formatUtc } from "../lib/format.ts";
import { MILESTONE_WORDS } from "../lib/route-map.ts";
import { ListTable } from "./ListTable.tsx";
import { usePaged } from "./Paged.tsx";

/** "Departed (DEP)" for a milestone (or RMP/CAN), the code alone for anything else. */
const eventLabel = (event: string) =>
  event in MILESTONE_WORDS ? `${MILESTONE_WORDS[event as keyof typeof MILESTONE_WORDS]} (${event})` : event;

export function Deliveries({ path, title, onClose }: { path: string; title: string; onClose: () => void }) {
  const list = usePaged<Delivery>(`${path}/deliveries`, 20);
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
      await list.reload();
    } catch (reason) {
      list.setError(errorText(reason));
    }
  };

  return (
    <section class="card deliveries" aria-labelledby="deliveries-title">
      <div class="section-head">
        <h3 id="deliveries-title">{title}</h3>
        <button type="button" class="secondary" onClick={() => void list.reload()}>
          Reload
        </button>
        <button type="button" class="secondary" onClick={onClose}>
          Close log
        </button>
      </div>
      <p role="status" class="notice-slot">
        {message}
      </p>
      <ListTable
        list={list}
        rowKey={(delivery) => delivery.DeliveryId}
        empty="No deliveries in the last 30 days."
        emptyClass="muted"
        pagerLabel="Delivery pages"
        columns={[
          {
            title: "Delivery",
            cell: (delivery) => `${eventLabel(delivery.Event)} · ${formatAwb(delivery.AwbNumber)}`,
          },
          {
            title: "Outcome",
            cell: (delivery) => (
              <>
                <span class={`chip chip-outcome chip-${deliveryOutcome(delivery)}`}>
                  {deliveryOutcome(delivery)}
                </span>
                {delivery.Attempts.at(-1)?.Detail ? (
                  <div class="muted detail">{delivery.Attempts.at(-1)?.Detail.slice(0, 120)}</div>
                ) : null}
              </>
            ),
          },
          { title: "Attempts", cell: (delivery) => delivery.Attempts.length },
          { title: "Response status", cell: deliveryResponseStatus },
          { title: "Last change", cell: (delivery) => formatUtc(delivery.UpdatedAt) },
        ]}
        actions={(delivery) => (
          <button type="button" class="secondary" onClick={() => void replay(delivery)}>
            Replay
          </button>
        )}
      />
    </section>
  );
}
