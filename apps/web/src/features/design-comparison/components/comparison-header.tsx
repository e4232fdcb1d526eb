import { PenTool } from 'lucide-react';
import { ConnectionBadge } from '../../../components/connection-badge';
import { ScreenHeader } from '../../../components/screen-header';
import type { SocketStatus } from '../../../lib/screen-realtime';

/** The title and the connection indicator (Connected / Connecting... / Disconnected; docs/PRODUCT.md). */
export function ComparisonHeader({ connection }: { connection: SocketStatus }) {
  return (
    <ScreenHeader
      icon={PenTool}
      title="Design Comparison"
      titleClassName="basis-52"
      description={
        <p className="mt-1 text-sm text-slate-600">
          Compare a Figma design or an uploaded image with a live website: scores, differences and CSS fixes.
        </p>
      }
      aside={<ConnectionBadge status={connection} testId="comparison-connection" />}
    />
  );
}
