import type { SettingsResponse } from '@argus/protocol';
import { Loader2, PenTool } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/button';
import { Panel } from '../../../components/panel';
import { errorText } from '../../../lib/api-error';
import { useUpdateSettings } from '../api/update-settings';
import { SecretField } from './secret-field';

/** The user's Figma token for design comparison (encrypted, shown masked); the server's is used without one. */
export function FigmaPanel({ settings }: { settings: SettingsResponse }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>();
  const save = useUpdateSettings();
  const remove = useUpdateSettings();

  const onSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = token.trim();
    if (!value) {
      setError('Paste a Figma personal access token');
      return;
    }
    save.mutate(
      { figma_token: value },
      {
        onSuccess: () => {
          setToken('');
          toast.success('Figma token saved');
        },
        onError: (failure) => {
          setError(errorText(failure, 'The Figma token could not be saved'));
          toast.error(errorText(failure, 'The Figma token could not be saved'));
        },
      },
    );
  };

  const onRemove = () =>
    remove.mutate(
      { figma_token: null },
      {
        onSuccess: () => toast.success('Figma token removed'),
        onError: (failure) => toast.error(errorText(failure, 'The Figma token could not be removed')),
      },
    );

  const fallback = settings.server_default.figma_token_set
    ? "None stored: design comparison uses the server's Figma account."
    : 'None stored, and the server shares none: comparing with a Figma file needs one (uploaded images do not).';

  return (
    <Panel title="Figma" icon={PenTool} subtitle="Used by design comparison" testId="figma-panel">
      <form onSubmit={onSave} noValidate className="space-y-4" aria-label="Figma token">
        <SecretField
          label="Figma token"
          stored={settings.figma_token}
          value={token}
          onChange={(value) => {
            setToken(value);
            setError(undefined);
          }}
          onRemove={onRemove}
          removing={remove.isPending}
          error={error}
          emptyPlaceholder="figd_…"
          hint={fallback}
        />
        <div className="flex justify-end">
          <Button type="submit" variant="secondary" disabled={save.isPending || !token.trim()}>
            {save.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
            Save token
          </Button>
        </div>
      </form>
    </Panel>
  );
}
