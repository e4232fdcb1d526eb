import { ChevronDown } from 'lucide-react';
import { type SelectHTMLAttributes, useId } from 'react';
import { cn } from '../../../lib/cn';

/** A labelled native select, styled like TextField. */
export function SelectField({
  label,
  hint,
  options,
  className,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: string;
  hint?: string;
  options: Array<{ value: string; label: string }>;
}) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="relative mt-1.5">
        <select
          id={id}
          aria-describedby={hint ? `${id}-hint` : undefined}
          className="block w-full appearance-none rounded-lg border border-slate-300 bg-white py-2.5 pr-10 pl-3 text-sm text-slate-900 shadow-xs transition focus:border-indigo-500 focus:ring-4 focus:ring-indigo-100 focus:outline-none"
          {...select}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDown
          className="pointer-events-none absolute inset-y-0 right-3 my-auto size-4 text-slate-500"
          aria-hidden
        />
      </div>
      {hint && (
        <p id={`${id}-hint`} className={cn('mt-1.5 text-xs text-slate-500')}>
          {hint}
        </p>
      )}
    </div>
  );
}
