import type { ReactNode } from 'react';

/**
 * What TextField, SelectField and TextAreaField share: the label above the control, the control's
 * border (red while it has an error), and the error under it, which the control names.
 */

/** The control's border and focus ring. */
export function fieldTone(error: string | undefined): string {
  return error
    ? 'border-red-400 focus:border-red-500 focus:ring-red-100'
    : 'border-slate-300 focus:border-indigo-500 focus:ring-indigo-100';
}

/** The ids the control's aria-describedby names: its error, then its hint (undefined when neither). */
export function describedBy(id: string, error: unknown, hint: unknown): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

export function FieldLabel({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-700">
      {children}
    </label>
  );
}

/** The error under the control, with the id the control names (`${id}-error`). */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className="mt-1.5 text-sm text-red-600">
      {error}
    </p>
  );
}
