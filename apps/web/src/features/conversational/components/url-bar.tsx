import { Globe, Play } from 'lucide-react';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';

/** docs/PRODUCT.md#starting-a-conversation: the optional URL bar (hidden once a session is active); Start Video once a URL is typed. */
export function UrlBar({
  url,
  onUrlChange,
  canStart,
  starting,
  onStart,
}: {
  url: string;
  onUrlChange: (url: string) => void;
  canStart: boolean;
  starting: boolean;
  onStart: () => void;
}) {
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white px-5 py-4 shadow-xs"
      onSubmit={(event) => {
        event.preventDefault();
        if (canStart && url.trim()) onStart();
      }}
      data-testid="url-bar"
    >
      <TextField
        label="Website URL (optional)"
        className="min-w-0 flex-1 basis-64"
        type="text"
        inputMode="url"
        placeholder="https://example.com"
        value={url}
        onChange={(event) => onUrlChange(event.target.value)}
        icon={<Globe className="size-4" aria-hidden />}
        autoComplete="url"
      />
      {url.trim() && (
        <Button type="submit" disabled={!canStart || starting} data-testid="start-video">
          <Play className="size-4" aria-hidden />
          {starting ? 'Starting...' : 'Start Video'}
        </Button>
      )}
    </form>
  );
}
