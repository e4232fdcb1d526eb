import { PenTool } from 'lucide-react';
import { ConnectionBadge } from '../../../components/connection-badge';
import type { ComparisonRealtime } from '../types';

/** The title (docs/PRODUCT.md#design-comparison) and the connection indicator (Connected / Connecting... / Disconnected). */
export function ComparisonHeader({ connection }: { connection: ComparisonRealtime['status'] }) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white px-5 py-5 shadow-xs sm:px-6">
      <div className="flex flex-wrap items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm shadow-indigo-600/20">
          <PenTool className="size-5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1 basis-52">
          <h1 className="text-xl font-semibold tracking-tight text-slate-900">Design Comparison</h1>
          <p className="mt-1 text-sm text-slate-600">
            Compare a Figma design or an uploaded image with a live website: scores, differences and CSS
            fixes.
          </p>
        </div>
        <ConnectionBadge status={connection} testId="comparison-connection" />
      </div>
    </section>
  );
}
