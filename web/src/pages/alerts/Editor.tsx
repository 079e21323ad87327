/** The one form of a rule or webhook: Save sends it; the API's field errors land on the fields. */
import { useState } from "preact/hooks";
import { ApiError, errorText, type FieldError } from "../../api.ts";
import { Field, FormErrors } from "../../components/Form.tsx";
import type { FormValues } from "../../lib/alerts.ts";

/** What the section's form is open for: a new item, an existing one, or nothing (closed). */
export type Editing<T> = { kind: "new" } | { kind: "edit"; item: T } | null;

type FieldOptions = Partial<Parameters<typeof Field>[0]>;

interface EditorProps {
  formId: string;
  title: string;
  fields: readonly string[];
  initial: FormValues;
  render: (field: (name: string, options?: FieldOptions) => preact.JSX.Element) => preact.JSX.Element;
  save: (values: FormValues) => Promise<void>;
  onCancel: () => void;
}

export function Editor({ formId, title, fields, initial, render, save, onCancel }: EditorProps) {
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onChange = (name: string, value: string | boolean) =>
    setValues((current) => ({ ...current, [name]: value }));
  const field = (name: string, options: FieldOptions = {}) => (
    <Field name={name} formId={formId} values={values} errors={errors} onChange={onChange} {...options} />
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await save(values);
      setErrors([]);
    } catch (reason) {
      setErrors(reason instanceof ApiError ? reason.fieldErrors : []);
      setProblem(errorText(reason));
      // The first field in error gets the focus, so the message is read where it applies.
      setTimeout(() => document.querySelector<HTMLElement>(`#${formId} [aria-invalid="true"]`)?.focus(), 0);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form id={formId} class="card editor" onSubmit={submit} aria-labelledby={`${formId}-title`} noValidate>
      <h3 id={`${formId}-title`}>{title}</h3>
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      <FormErrors errors={errors} known={fields} />
      <div class="editor-grid">{render(field)}</div>
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          Save
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
