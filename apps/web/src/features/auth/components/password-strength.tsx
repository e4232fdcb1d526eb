import { PASSWORD_MIN_LENGTH, type PasswordChecks, passwordChecks, passwordStrength } from '@argus/protocol';
import { Check, X } from 'lucide-react';
import { cn } from '../../../lib/cn';

const RULES: Array<{ key: keyof PasswordChecks; label: string }> = [
  { key: 'length', label: `At least ${PASSWORD_MIN_LENGTH} characters` },
  { key: 'uppercase', label: 'One uppercase letter' },
  { key: 'lowercase', label: 'One lowercase letter' },
  { key: 'digit', label: 'One number' },
];

const LEVEL_STYLE = ['bg-slate-200', 'bg-red-500', 'bg-red-500', 'bg-amber-500', 'bg-emerald-500'];
const LABEL_STYLE = ['text-slate-500', 'text-red-600', 'text-red-600', 'text-amber-700', 'text-emerald-700'];

/** docs/PRODUCT.md#registration: the four rules as a meter (0 'Enter password', 1-2 'Weak', 3 'Good', 4 'Strong') and a checklist. */
export function PasswordStrength({ password }: { password: string }) {
  const { score, label } = passwordStrength(password);
  const checks = passwordChecks(password);
  return (
    <div className="mt-3 space-y-2.5" data-testid="password-strength">
      <div className="flex items-center gap-3">
        <div className="flex flex-1 gap-1.5" aria-hidden="true">
          {[1, 2, 3, 4].map((level) => (
            <span
              key={level}
              className={cn(
                'h-1.5 flex-1 rounded-full transition-colors',
                score >= level ? LEVEL_STYLE[score] : 'bg-slate-200',
              )}
            />
          ))}
        </div>
        <span
          className={cn('min-w-24 text-right text-xs font-semibold', LABEL_STYLE[score])}
          data-testid="password-strength-label"
          aria-live="polite"
        >
          {label}
        </span>
      </div>
      <ul className="grid grid-cols-1 gap-x-4 gap-y-1 text-xs sm:grid-cols-2">
        {RULES.map(({ key, label: text }) => (
          <li
            key={key}
            className={cn('flex items-center gap-1.5', checks[key] ? 'text-emerald-700' : 'text-slate-500')}
            data-met={checks[key]}
          >
            {checks[key] ? (
              <Check className="size-3.5" aria-hidden />
            ) : (
              <X className="size-3.5" aria-hidden />
            )}
            <span>{text}</span>
            <span className="sr-only">{checks[key] ? '(met)' : '(not met)'}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** docs/PRODUCT.md#registration: 'Passwords match' / 'Passwords do not match', once something is typed in the confirmation. */
export function PasswordMatch({ password, confirm }: { password: string; confirm: string }) {
  if (!confirm) return null;
  const matches = password === confirm;
  return (
    <p
      className={cn(
        'mt-2 flex items-center gap-1.5 text-xs font-medium',
        matches ? 'text-emerald-700' : 'text-red-600',
      )}
      data-testid="password-match"
      aria-live="polite"
    >
      {matches ? <Check className="size-3.5" aria-hidden /> : <X className="size-3.5" aria-hidden />}
      {matches ? 'Passwords match' : 'Passwords do not match'}
    </p>
  );
}
