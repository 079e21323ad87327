/** A list the API pages (`?CurrentPage=&PageSize=`): the hook that loads a page, and its pager. */
import { useEffect, useState } from "preact/hooks";
import { api, errorText, type PagedResponse } from "../api.ts";

/** A list's current page (null until loaded), its error, and what changes them. */
export interface PagedList<T> {
  page: number;
  setPage: (page: number) => void;
  data: PagedResponse<T> | null;
  error: string | null;
  setError: (error: string | null) => void;
  /** Loads the current page again (after an action changed the list). */
  reload: () => Promise<void>;
}

/** The current page of `path`, its error, and a reload (after an action changed the list). */
export function usePaged<T>(path: string, pageSize: number): PagedList<T> {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<PagedResponse<T> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = () =>
    api<PagedResponse<T>>("GET", `${path}?CurrentPage=${page}&PageSize=${pageSize}`)
      .then((loaded) => {
        setData(loaded);
        setError(null);
      })
      .catch((reason: unknown) => setError(errorText(reason)));
  useEffect(() => {
    void reload();
  }, [path, page]);
  return { page, setPage, data, error, setError, reload };
}

export function Pager({
  page,
  totalPages,
  onPage,
  label,
}: {
  page: number;
  totalPages: number;
  onPage: (n: number) => void;
  label: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" class="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {page} of {totalPages}
      </span>
      <button type="button" class="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
