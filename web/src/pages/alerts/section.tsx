/** What the rules and webhooks sections share: their frame, their state chip, how a row's action runs. */
import type { ComponentChildren } from "preact";
import { errorText } from "../../api.ts";
import type { PagedList } from "../../components/Paged.tsx";

/** Tells the page's status line what happened (read out by screen readers). */
export type Say = (message: string) => void;

interface SectionProps {
  /** Prefix of the heading's id ("rules" → "rules-title"). */
  id: string;
  title: string;
  /** The New button's text, e.g. "New rule". */
  newLabel: string;
  onNew: () => void;
  /** One line on what the section's items do. */
  description: string;
  children: ComponentChildren;
}

export function SubscriptionSection({ id, title, newLabel, onNew, description, children }: SectionProps) {
  return (
    <section class="alerts-section" aria-labelledby={`${id}-title`}>
      <div class="section-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" class="primary" onClick={onNew}>
          {newLabel}
        </button>
      </div>
      <p class="muted">{description}</p>
      {children}
    </section>
  );
}

/** A rule's or webhook's switch, as colour and text. */
export function EnabledChip({ enabled }: { enabled: boolean }) {
  return (
    <span class={`chip ${enabled ? "chip-ok" : "chip-planned"}`}>{enabled ? "Enabled" : "Disabled"}</span>
  );
}

/** A row's action: runs it, says `done` (or why it failed), and reloads the list the row is in. */
export const rowAction =
  (list: Pick<PagedList<unknown>, "reload">, say: Say) =>
  async (what: () => Promise<unknown>, done: string): Promise<void> => {
    try {
      await what();
      say(done);
      await list.reload();
    } catch (reason) {
      say(errorText(reason));
    }
  };
