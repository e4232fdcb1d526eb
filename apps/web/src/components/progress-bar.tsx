import { cn } from '../lib/cn';

/**
 * A horizontal bar filled to `percent`: an automation run's tests, a comparison's progress, storage
 * used of a quota. `value` and `max` are what it reads out (aria-valuenow/-max).
 */
export function ProgressBar({
  label,
  value,
  max,
  percent,
  barClassName,
  animated = false,
  className,
  testId,
}: {
  /** Its accessible name, e.g. 'Test progress'. */
  label: string;
  value: number;
  max: number;
  /** 0 to 100: how far the fill reaches. */
  percent: number;
  /** The fill's colour. */
  barClassName: string;
  /** The fill grows smoothly (live progress), not at once. */
  animated?: boolean;
  /** The track's margin. */
  className?: string;
  testId?: string;
}) {
  return (
    <div
      className={cn(className, 'h-2.5 overflow-hidden rounded-full bg-slate-100')}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      data-testid={testId}
    >
      <div
        className={cn('h-full rounded-full', animated && 'transition-[width] duration-500', barClassName)}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
