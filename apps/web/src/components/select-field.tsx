import { ChevronDown } from 'lucide-react';
import { type SelectHTMLAttributes, useId } from 'react';
import { cn } from '../lib/cn';
import { describedBy, FieldError, FieldLabel, fieldTone } from './field-parts';

/** A labelled native select, styled like TextField; `error` is shown under it and named by it. */
export function SelectField({
  label,
  hint,
  error,
  options,
  className,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: string;
  hint?: string;
  error?: string;
  options: Array<{ value: string; label: string; disabled?: boolean }>;
}) {
  const id = useId();
  return (
    <div className={className}>
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <div className="relative mt-1.5">
        <select
          id={id}
          aria-describedby={describedBy(id, error, hint)}
          aria-invalid={error ? true : undefined}
          className={cn(
            'block w-full appearance-none rounded-lg border bg-white py-2.5 pr-10 pl-3 text-sm text-slate-900 shadow-xs transition focus:ring-4 focus:outline-none',
            fieldTone(error),
          )}
          {...select}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDown
          className="pointer-events-none absolute inset-y-0 right-3 my-auto size-4 text-slate-500"
          aria-hidden
        />
      </div>
      <FieldError id={id} error={error} />
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
