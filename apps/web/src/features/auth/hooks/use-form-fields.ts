import { useState } from 'react';
import type { ApiError } from '../../../lib/api-error';

/** A form of text fields, each with its own error that editing the field clears. */
export function useFormFields<F extends string>(initial: Record<F, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  /** The change handler of one field's input. */
  const set = (field: F) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const reset = () => {
    setValues(initial);
    setErrors({});
  };
  return { values, errors, setErrors, set, reset };
}

/** The server's validation issues about the form's own fields, the first of each, keyed by field. */
export function fieldIssues<F extends string>(
  error: ApiError,
  fields: Record<F, unknown>,
): Partial<Record<F, string>> {
  const found: Partial<Record<F, string>> = {};
  for (const issue of error.issues) {
    const field = issue.loc[issue.loc.length - 1];
    if (typeof field === 'string' && field in fields) found[field as F] ??= issue.msg;
  }
  return found;
}
