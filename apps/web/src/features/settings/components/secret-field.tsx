import { KeyRound, Trash2 } from 'lucide-react';
import { useRef } from 'react';
import { SmallButton } from '../../../components/small-button';
import { TextField } from '../../../components/text-field';

/**
 * A secret's field: the stored one is shown only masked ('sk-…1234', as the placeholder and beside the
 * label); typing replaces it on save, 'Remove' deletes it. The value typed is never read back.
 */
export function SecretField({
  label,
  stored,
  value,
  onChange,
  onRemove,
  removing,
  error,
  emptyPlaceholder,
  hint,
}: {
  label: string;
  /** The masked stored secret, or null when there is none. */
  stored: string | null;
  value: string;
  onChange: (value: string) => void;
  onRemove: () => void;
  removing?: boolean;
  error?: string;
  emptyPlaceholder: string;
  hint?: string;
}) {
  const field = useRef<HTMLDivElement>(null);
  const focusInput = () => field.current?.querySelector('input')?.focus();
  return (
    <div ref={field}>
      <TextField
        label={label}
        type="password"
        autoComplete="off"
        spellCheck={false}
        icon={<KeyRound className="size-4" />}
        placeholder={stored ? `${stored} (stored; type to replace)` : emptyPlaceholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        error={error}
        data-stored={stored ?? ''}
      >
        <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
          {stored ? (
            <>
              <span data-testid="stored-secret">
                Stored:{' '}
                <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-800">{stored}</code>
              </span>
              <SmallButton onClick={focusInput} aria-label={`Replace ${label.toLowerCase()}`}>
                Replace
              </SmallButton>
              <SmallButton
                variant="ghost"
                icon={Trash2}
                onClick={onRemove}
                disabled={removing}
                aria-label={`Remove ${label.toLowerCase()}`}
              >
                {removing ? 'Removing...' : 'Remove'}
              </SmallButton>
            </>
          ) : (
            <span>{hint ?? 'None stored.'}</span>
          )}
        </div>
      </TextField>
    </div>
  );
}
