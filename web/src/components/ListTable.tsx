/**
 * The frame of every paged list on the Alerts page (rules, webhooks, their delivery logs, customer
 * endpoints): the list's error, its empty state, the table (the first column heads each row, the
 * row's actions last) and the pager. On a phone each row is a card: every cell says its column's name
 * (data-label) and the actions wrap inside the card, so none is out of view.
 */
import type { ComponentChildren } from "preact";
import { type PagedList, Pager } from "./Paged.tsx";

export interface Column<T> {
  /** The column header. */
  title: string;
  cell: (item: T) => ComponentChildren;
  /** Class of the column's cells, e.g. "url". */
  class?: string;
}

interface ListTableProps<T> {
  list: PagedList<T>;
  /** The first column is the row header (`<th scope="row">`). */
  columns: readonly [Column<T>, ...Column<T>[]];
  rowKey: (item: T) => string | number;
  /** The row's buttons, in a last column whose header only screen readers read ("Actions"). */
  actions?: (item: T) => ComponentChildren;
  /** Shown instead of the table when the list is empty. */
  empty: string;
  /** "muted" inside a card (a delivery log), else the framed "empty" box. */
  emptyClass?: "empty" | "muted";
  /** The pager's accessible name, e.g. "Rule pages". */
  pagerLabel: string;
}

export function ListTable<T>({
  list,
  columns,
  rowKey,
  actions,
  empty,
  emptyClass = "empty",
  pagerLabel,
}: ListTableProps<T>) {
  const [head, ...rest] = columns;
  const items = list.data?.Items;
  return (
    <>
      {list.error ? (
        <p class="error" role="alert">
          {list.error}
        </p>
      ) : null}
      {items && items.length === 0 ? <p class={emptyClass}>{empty}</p> : null}
      {items && items.length > 0 ? (
        <div class="table-wrap">
          <table class="stack-table">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.title} scope="col">
                    {column.title}
                  </th>
                ))}
                {actions ? (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={rowKey(item)}>
                  <th scope="row" class={head.class} data-label={head.title}>
                    {head.cell(item)}
                  </th>
                  {rest.map((column) => (
                    <td key={column.title} class={column.class} data-label={column.title}>
                      {column.cell(item)}
                    </td>
                  ))}
                  {actions ? (
                    <td class="row-actions">
                      <div class="actions">{actions(item)}</div>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager
        page={list.page}
        totalPages={list.data?.TotalPages ?? 1}
        onPage={list.setPage}
        label={pagerLabel}
      />
    </>
  );
}
