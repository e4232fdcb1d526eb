import { AlertTriangle, Settings } from 'lucide-react';
import type { ReactNode } from 'react';
import { Banner } from '../../components/banner';
import { Spinner } from '../../components/spinner';
import { errorText } from '../../lib/api-error';
import { useSettings } from './api/get-settings';
import { AiEnginePanel } from './components/ai-engine-panel';
import { ApiTokensPanel } from './components/api-tokens-panel';
import { FigmaPanel } from './components/figma-panel';
import { StoragePanel } from './components/storage-panel';
import { UsagePanel } from './components/usage-panel';

/**
 * The Settings screen (/settings, docs/PRODUCT.md#routes): the AI engine with its key, this month's usage and budget,
 * the Figma token, API tokens for CI, what the user stores and how long history is kept, and whatever account panels the app adds (`account`: the password change).
 */
export function SettingsScreen({ account }: { account?: ReactNode }) {
  const settings = useSettings();
  return (
    <div className="mx-auto max-w-6xl space-y-6" data-testid="settings-screen">
      <header className="flex items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm shadow-indigo-600/20">
          <Settings className="size-5" aria-hidden />
        </span>
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Settings</h1>
          <p className="mt-1 text-sm text-slate-600">
            Your AI engine and its budget, design-tool access, API tokens, storage, and password.
          </p>
        </div>
      </header>
      {settings.isError && (
        <Banner tone="error" icon={AlertTriangle} testId="settings-error">
          {errorText(settings.error, 'Your settings could not be loaded')}
        </Banner>
      )}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-6">
          {settings.data ? (
            <>
              <AiEnginePanel settings={settings.data} />
              <FigmaPanel settings={settings.data} />
              <ApiTokensPanel />
            </>
          ) : (
            !settings.isError && (
              <div className="flex justify-center rounded-2xl border border-slate-200 bg-white py-16 text-indigo-600">
                <Spinner className="size-7" label="Loading settings" />
              </div>
            )
          )}
        </div>
        <div className="min-w-0 space-y-6">
          {settings.data && <UsagePanel settings={settings.data} />}
          {settings.data && <StoragePanel />}
          {account}
        </div>
      </div>
    </div>
  );
}
