import type { UploadedDesign } from '@argus/protocol';
import type { RefObject } from 'react';
import type { useScreenSession } from '../../../lib/sessions/use-screen-session';
import type { ComparisonEvent, ComparisonState } from '../model/comparison-state';
import type { ComparisonMethod } from '../model/validation';
import type { ComparisonRealtime } from '../types';
import type { ComparisonInputs } from './use-comparison-inputs';

/** What handlers registered once read of the latest render. */
export interface LatestInputs {
  realtime: ComparisonRealtime;
  figmaUrl: string;
  websiteUrl: string;
  method: ComparisonMethod;
  upload: UploadedDesign | null;
}

/** What every part of the design comparison screen's behaviour (hooks/use-comparison-*.ts) works with. */
export interface ComparisonCore {
  /** The state as it is now, not as it was at the last render. */
  stateRef: RefObject<ComparisonState>;
  dispatch: (event: ComparisonEvent) => { before: ComparisonState; after: ComparisonState };
  latest: RefObject<LatestInputs>;
  inputs: ComparisonInputs;
  session: ReturnType<typeof useScreenSession>;
  /** The session the running (or shown) comparison belongs to, ahead of the session hook's render. */
  sessionIdRef: { current: string | null };
  /** The results reopened from the past: already kept with their session, not saved again. */
  restoredRef: { current: object | null };
}
