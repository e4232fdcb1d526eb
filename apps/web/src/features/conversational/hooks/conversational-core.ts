import type { RefObject } from 'react';
import type { ConversationalStore } from '../model/conversation-state';
import type { StopGuard } from '../model/stop-guard';
import type { ConversationalScreenProps } from '../types';
import type { ConversationVideo } from './use-conversation-video';

/** Why a session stopped (sent with stop_conversation and kept with the session). */
export type StopReason = 'user_stopped' | 'page_unload' | 'page_hide' | 'navigation' | 'component_unmount';

/** What handlers registered once read of the latest render. */
export interface LatestInputs {
  user: ConversationalScreenProps['user'];
  realtime: ConversationalScreenProps['realtime'];
  sessions: ConversationalScreenProps['sessions'];
  sendUnloadBeacon: ConversationalScreenProps['sendUnloadBeacon'];
  urlInput: string;
}

/** The timer that gives up waiting for a stop's confirmation (docs/PRODUCT.md#stopping-a-conversation). */
export interface StopTimer {
  ref: { current: ReturnType<typeof setTimeout> | null };
  clear: () => void;
}

/** What every part of the conversational screen's behaviour (hooks/use-conversation-*.ts) works with. */
export interface ConversationalCore {
  store: ConversationalStore;
  guard: StopGuard;
  latest: RefObject<LatestInputs>;
  /** A fresh id for a chat message (`prefix-time-seq`). */
  nextId: (prefix: string) => string;
  video: ConversationVideo;
  stopTimer: StopTimer;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
