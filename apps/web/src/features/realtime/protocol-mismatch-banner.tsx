import { RefreshCw } from 'lucide-react';
import { Banner } from '../../components/banner';
import { REALTIME_ERRORS } from './realtime-client';
import { useRealtime } from './realtime-context';

/**
 * Shown when the server speaks another version of the realtime protocol (it was updated while this
 * page stayed open): the page cannot follow its messages until it is reloaded, so it asks to.
 */
export function ProtocolMismatchBanner() {
  const { protocolMismatch } = useRealtime();
  if (!protocolMismatch) return null;
  return (
    <div className="mb-6">
      <Banner tone="warning" icon={RefreshCw} testId="protocol-mismatch">
        {REALTIME_ERRORS.outdated}{' '}
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="font-semibold underline underline-offset-2 hover:no-underline focus-visible:outline-2 focus-visible:outline-amber-700"
        >
          Reload now
        </button>
        <span className="sr-only">
          {' '}
          (this page speaks version {protocolMismatch.client} of the realtime protocol, the server version{' '}
          {protocolMismatch.server})
        </span>
      </Banner>
    </div>
  );
}
