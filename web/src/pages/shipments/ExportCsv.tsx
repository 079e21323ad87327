/**
 * "Export CSV": every page of the shipment list as it is filtered and sorted now, downloaded as one
 * file. A long list shows its progress (pages and shipments read, a progress bar) and can be
 * cancelled; the status line says when the file is ready.
 */
import { useRef, useState } from "preact/hooks";
import { errorText } from "../../api.ts";
import { formatUtcClock } from "../../lib/format.ts";
import type { ShipmentFilters, SortOrder } from "../../lib/search.ts";
import { csvFileName, shipmentsCsv } from "../../lib/shipments-csv.ts";
import { type ExportProgress, loadAllShipments } from "./load.ts";

interface Props {
  filters: ShipmentFilters;
  sort: SortOrder;
  exceptionsOnly: boolean;
}

function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ExportCsv({ filters, sort, exceptionsOnly }: Props) {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [running, setRunning] = useState(false);
  const [message, setMessage] = useState("");
  const cancel = useRef(false);

  const run = async () => {
    cancel.current = false;
    setRunning(true);
    setProgress(null);
    setMessage("Exporting…");
    try {
      const maps = await loadAllShipments(filters, sort, exceptionsOnly, setProgress, () => cancel.current);
      if (!maps) {
        setMessage("Export cancelled.");
        return;
      }
      const at = new Date();
      download(shipmentsCsv(maps), csvFileName(at));
      setMessage(`Exported ${maps.length} shipments at ${formatUtcClock(at)} (${csvFileName(at)}).`);
    } catch (reason) {
      setMessage(`Export failed: ${errorText(reason)}`);
    } finally {
      setRunning(false);
    }
  };

  return (
    <div class="export">
      {running ? (
        <button
          type="button"
          class="secondary"
          onClick={() => {
            cancel.current = true;
          }}
        >
          Cancel export
        </button>
      ) : (
        <button type="button" class="secondary" onClick={() => void run()}>
          Export CSV
        </button>
      )}
      {running && progress ? (
        <progress max={progress.pages} value={progress.page} aria-label="Export progress" />
      ) : null}
      <span class="muted" role="status">
        {running && progress
          ? `Exporting: page ${progress.page} of ${progress.pages} · ${progress.read} of ${progress.total} shipments read`
          : message}
      </span>
    </div>
  );
}
