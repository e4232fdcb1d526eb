import type { ClientMessageInput, TestMode, User } from '@argus/protocol';
import type { RefObject } from 'react';
import type { ScreenRealtime } from '../../../lib/screen-realtime';
import type { ScreenSessionStore } from '../../../lib/sessions/screen-session';
import type { AutomationStore } from '../model/automation-store';
import type { ProjectChoiceState } from '../model/project-target';
import type { StopFlag } from '../model/stop-flag';
import type { AutomationInputs } from './use-automation-inputs';

/** What handlers registered once read of the latest render. */
export interface LatestInputs {
  mode: TestMode;
  command: string;
  user: User | null;
  realtime: ScreenRealtime;
  projectChoice: ProjectChoiceState;
  sessions: ScreenSessionStore;
}

/** What every part of the automation screen's behaviour (hooks/use-automation-*.ts) works with. */
export interface AutomationCore {
  store: AutomationStore;
  stopFlag: StopFlag;
  /** Sends on the shared socket; throws when it is not open. */
  send: (message: ClientMessageInput) => void;
  latest: RefObject<LatestInputs>;
  inputs: AutomationInputs;
  /** The shared socket as this render has it. */
  realtime: ScreenRealtime;
  isLoggedIn: boolean;
  isConnected: boolean;
}

/** Why something failed, for a toast. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
