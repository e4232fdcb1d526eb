import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
  /** Shown on hover. */
  hint?: string;
  icon?: LucideIcon;
}

/**
 * A row of radio buttons drawn as a segmented control: real radios (arrow keys, one tab stop, a fieldset
 * naming the group), each stretched invisibly over its pill. 'regular' fills a form's width in equal columns
 * under a visible legend; 'compact' is a small inline toolbar control whose legend only screen readers read.
 */
export function SegmentedControl<T extends string>({
  legend,
  name,
  value,
  onChange,
  options,
  disabled,
  size = 'regular',
  columns = 2,
  children,
}: {
  legend: string;
  name: string;
  value: T;
  onChange: (value: T) => void;
  options: readonly SegmentedOption<T>[];
  disabled?: boolean;
  size?: 'regular' | 'compact';
  /** 'regular' only: how many options share a row. */
  columns?: 2 | 3;
  /** Inside the fieldset, under the options (e.g. the selected option's hint). */
  children?: ReactNode;
}) {
  const compact = size === 'compact';
  const pills = options.map((option) => {
    const selected = option.value === value;
    const Icon = option.icon;
    return (
      <label
        key={option.value}
        title={option.hint}
        className={cn(
          compact
            ? 'relative inline-flex items-center gap-1.5 rounded-lg px-3 py-1 text-xs font-medium transition'
            : 'relative flex items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-medium transition',
          compact
            ? 'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600'
            : 'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600 has-[:disabled]:opacity-60',
          selected ? 'bg-white text-indigo-700 shadow-sm' : 'text-slate-600 hover:text-slate-900',
        )}
      >
        <input
          type="radio"
          name={name}
          value={option.value}
          checked={selected}
          onChange={() => onChange(option.value)}
          className={
            compact
              ? 'absolute inset-0 size-full cursor-pointer appearance-none rounded-lg opacity-0'
              : 'absolute inset-0 size-full cursor-pointer appearance-none rounded-lg opacity-0 disabled:cursor-not-allowed'
          }
        />
        {Icon && <Icon className={compact ? 'size-3.5' : 'size-4'} aria-hidden />}
        {option.label}
      </label>
    );
  });
  if (compact) {
    return (
      <fieldset className="flex gap-1 rounded-xl bg-slate-100 p-1" disabled={disabled}>
        <legend className="sr-only">{legend}</legend>
        {pills}
        {children}
      </fieldset>
    );
  }
  return (
    <fieldset disabled={disabled}>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div
        className={cn(
          'mt-1.5 grid gap-1 rounded-xl bg-slate-100 p-1',
          columns === 3 ? 'grid-cols-3' : 'grid-cols-2',
        )}
      >
        {pills}
      </div>
      {children}
    </fieldset>
  );
}
