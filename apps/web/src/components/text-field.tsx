import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { cn } from '../lib/cn';
import { describedBy, FieldError, FieldLabel, fieldTone } from './field-parts';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
  /** An icon drawn inside the input on the left. */
  icon?: ReactNode;
  /** A control drawn inside the input on the right (e.g. a show/hide toggle). */
  trailing?: ReactNode;
  /** Extra content under the input (hints, meters). */
  children?: ReactNode;
}

export function TextField({ label, error, icon, trailing, children, className, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <div className={className}>
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <div className="relative mt-1.5">
        {icon && (
          <span className="pointer-events-none absolute inset-y-0 left-0 flex items-center pl-3 text-slate-400">
            {icon}
          </span>
        )}
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, undefined)}
          className={cn(
            'block w-full rounded-lg border bg-white py-2.5 text-sm text-slate-900 shadow-xs transition',
            'placeholder:text-slate-500 focus:outline-none focus:ring-4',
            fieldTone(error),
            icon ? 'pl-10' : 'pl-3',
            trailing ? 'pr-11' : 'pr-3',
          )}
          {...input}
        />
        {trailing && <span className="absolute inset-y-0 right-0 flex items-center pr-1.5">{trailing}</span>}
      </div>
      <FieldError id={id} error={error} />
      {children}
    </div>
  );
}
