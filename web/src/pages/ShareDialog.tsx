/** Share links of one AWB: create one (1-720 hours), copy its Url, list the active ones, revoke. */
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, type CreatedShareResponse, errorText, FFW, type ShareListItem } from "../api.ts";
import { formatAwb, formatUtc } from "../lib/format.ts";

export function ShareDialog({ awb, onClose }: { awb: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [hours, setHours] = useState("24");
  const [created, setCreated] = useState<{ Url: string; ExpiresAt: string } | null>(null);
  const [links, setLinks] = useState<ShareListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const base = `${FFW}/${awb}/share`;

  const reload = () =>
    api<{ Items: ShareListItem[] }>("GET", base)
      .then((answer) => setLinks(answer.Items))
      .catch((reason: unknown) => setError(errorText(reason)));

  useEffect(() => {
    dialog.current?.showModal();
    void reload();
  }, [awb]);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setFieldError(null);
    try {
      const answer = await api<CreatedShareResponse>("POST", base, {
        ExpiresInHours: Number(hours),
      });
      // Listed at once (the reload below confirms it), so the new link's Revoke is there with its Url.
      setLinks((current) => [
        ...(current ?? []).filter((link) => link.Id !== answer.Id),
        { Id: answer.Id, ExpiresAt: answer.ExpiresAt, CreatedAt: new Date().toISOString() },
      ]);
      setCreated(answer);
      setCopied(false);
      await reload();
    } catch (reason) {
      const field =
        reason instanceof ApiError ? reason.fieldErrors.find((e) => e.field === "ExpiresInHours") : null;
      if (field) setFieldError(field.message);
      else setError(errorText(reason));
    }
  };

  const revoke = async (id: string) => {
    setError(null);
    try {
      await api("DELETE", `${base}/${id}`);
      await reload();
    } catch (reason) {
      setError(errorText(reason));
    }
  };

  return (
    <dialog ref={dialog} class="dialog" aria-labelledby="share-title" onClose={onClose}>
      <h2 id="share-title">Share {formatAwb(awb)}</h2>
      <p class="muted">
        Anyone with the link sees this AWB's route map, read-only and without signing in, until it expires or
        you revoke it.
      </p>
      <form class="share-form" onSubmit={create}>
        <label>
          Expires in hours
          <input
            type="number"
            min={1}
            max={720}
            required
            value={hours}
            onInput={(event) => setHours(event.currentTarget.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? "share-hours-error" : undefined}
          />
        </label>
        {fieldError ? (
          <p id="share-hours-error" class="field-error">
            {fieldError}
          </p>
        ) : null}
        <button type="submit" class="primary">
          Create link
        </button>
      </form>
      {created ? (
        <div class="share-created">
          <label>
            Share link
            <input readOnly value={created.Url} onFocus={(event) => event.currentTarget.select()} />
          </label>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              void navigator.clipboard?.writeText(created.Url).then(() => setCopied(true));
            }}
          >
            Copy
          </button>
          <span role="status">{copied ? "Copied." : `Expires ${formatUtc(created.ExpiresAt)}`}</span>
        </div>
      ) : null}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <h3 class="small-heading">Active links</h3>
      {links === null ? <p>Loading…</p> : null}
      {links?.length === 0 ? <p class="muted">No active links.</p> : null}
      <ul class="plain share-links">
        {links?.map((link) => (
          <li key={link.Id}>
            <span>
              Created {formatUtc(link.CreatedAt)}, expires {formatUtc(link.ExpiresAt)}
            </span>
            <button type="button" class="danger" onClick={() => void revoke(link.Id)}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <div class="dialog-actions">
        <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
