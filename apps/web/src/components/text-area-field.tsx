import { type ReactNode, type TextareaHTMLAttributes, useId } from 'react';
import { cn } from '../lib/cn';
import { describedBy, FieldError, FieldLabel, fieldTone } from './field-parts';

/** A labelled textarea, styled like TextField; `error` is shown under it, `hint` under that. */
export function TextAreaField({
  label,
  error,
  hint,
  children,
  className,
  inputClassName,
  ...textarea
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Added to the textarea's classes (e.g. a monospace font, a height). */
  inputClassName?: string;
  /** Extra content under the field. */
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className={className}>
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={cn(
          'mt-1.5 block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-xs transition',
          'placeholder:text-slate-500 focus:outline-none focus:ring-4',
          fieldTone(error),
          inputClassName,
        )}
        {...textarea}
      />
      <FieldError id={id} error={error} />
      {hint && (
        <div id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </div>
      )}
      {children}
    </div>
  );
}
