import type { LucideIcon } from 'lucide-react';
import type { FormEvent, ReactNode } from 'react';
import { Panel } from './panel';

/**
 * A Panel whose body is one form (a screen's setup: the automation configuration, the comparison's
 * inputs): submitting it calls `onSubmit` without reloading the page, and the browser's own validation
 * is off, since each screen shows its own checks.
 */
export function FormPanel({
  title,
  icon,
  testId,
  onSubmit,
  className,
  children,
}: {
  title: string;
  icon: LucideIcon;
  testId: string;
  onSubmit: () => void;
  /** The form's classes (its spacing). */
  className?: string;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Panel title={title} icon={icon} testId={testId}>
      <form onSubmit={submit} noValidate className={className}>
        {children}
      </form>
    </Panel>
  );
}
