/**
 * Form fields labelled with the API member's name, showing the API's problem+json field errors next
 * to the field (aria-invalid + aria-describedby), so a refusal reads where it applies.
 */
import type { ComponentChildren } from "preact";
import type { FieldError } from "../api.ts";

import type { FormValues } from "../lib/alerts.ts";

interface FieldProps {
  /** The API member (and the label). */
  name: string;
  formId: string;
  values: FormValues;
  errors: FieldError[];
  onChange: (name: string, value: string | boolean) => void;
  kind?: "text" | "number" | "checkbox" | "select" | "url" | "email";
  options?: readonly string[];
  hint?: string;
  required?: boolean;
}

export function Field({
  name,
  formId,
  values,
  errors,
  onChange,
  kind = "text",
  options,
  hint,
  required,
}: FieldProps) {
  const id = `${formId}-${name}`;
  const mine = errors.filter((error) => error.field === name);
  const describedBy = [mine.length ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
  const common = {
    id,
    name,
    "aria-invalid": mine.length ? (true as const) : undefined,
    "aria-describedby": describedBy || undefined,
  };
  const value = values[name];
  let control: ComponentChildren;
  if (kind === "checkbox")
    control = (
      <input
        {...common}
        type="checkbox"
        checked={value === true}
        onChange={(event) => onChange(name, event.currentTarget.checked)}
      />
    );
  else if (kind === "select")
    control = (
      <select
        {...common}
        value={String(value ?? "")}
        onChange={(event) => onChange(name, event.currentTarget.value)}
      >
        {(options ?? []).map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  else
    control = (
      <input
        {...common}
        // Preact's types narrow attributes per input type; these four take the same attributes.
        type={kind as "text"}
        value={String(value ?? "")}
        required={required}
        autoComplete="off"
        onInput={(event) => onChange(name, event.currentTarget.value)}
      />
    );
  return (
    <div class={`field${kind === "checkbox" ? " field-check" : ""}${mine.length ? " has-error" : ""}`}>
      {kind === "checkbox" ? (
        <>
          {control}
          <label for={id}>{name}</label>
        </>
      ) : (
        <>
          <label for={id}>{name}</label>
          {control}
        </>
      )}
      {hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
      {mine.length ? (
        <p id={`${id}-error`} class="field-error">
          {mine.map((error) => error.message).join("; ")}
        </p>
      ) : null}
    </div>
  );
}

export function FormErrors({ errors, known }: { errors: FieldError[]; known: readonly string[] }) {
  // Errors about members the form has no field for (or the body as a whole) are listed at the top.
  const other = errors.filter((error) => !known.includes(error.field));
  if (other.length === 0) return null;
  return (
    <ul class="error">
      {other.map((error) => (
        <li key={`${error.field}${error.message}`}>
          {error.field ? `${error.field}: ` : ""}
          {error.message}
        </li>
      ))}
    </ul>
  );
}
