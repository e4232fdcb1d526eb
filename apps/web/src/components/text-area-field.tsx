import { type ReactNode, type TextareaHTMLAttributes, useId } from 'react';
import { cn } from '../lib/cn';

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
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={cn(
          'mt-1.5 block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-xs transition',
          'placeholder:text-slate-500 focus:outline-none focus:ring-4',
          error
            ? 'border-red-400 focus:border-red-500 focus:ring-red-100'
            : 'border-slate-300 focus:border-indigo-500 focus:ring-indigo-100',
          inputClassName,
        )}
        {...textarea}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1.5 text-sm text-red-600">
          {error}
        </p>
      )}
      {hint && (
        <div id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </div>
      )}
      {children}
    </div>
  );
}
