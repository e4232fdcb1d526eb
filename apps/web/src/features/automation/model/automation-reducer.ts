import { type AutomationAction, type AutomationState, concernsAutomation } from './automation-state';
import { isAtRest, isBusy, nextStatus } from './execution';
import { keptWork } from './kept-work';
import { withFreshLinks } from './screenshots';
import { applyServerMessage } from './server-messages';

/** The screen's state after one action: the user's, the socket's, or a server message of automation's. */
export function automationReducer(state: AutomationState, action: AutomationAction): AutomationState {
  switch (action.type) {
    case 'session':
      return state.sessionId === action.sessionId ? state : { ...state, sessionId: action.sessionId };
    case 'generate_requested':
      if (!isAtRest(state.status)) return state;
      return {
        ...state,
        status: 'generating',
        generationMode: action.mode,
        targetUrl: action.url,
        generationMessages: [],
        lastError: null,
      };
    case 'generate_aborted':
      return state.status === 'generating' ? { ...state, status: 'idle', generationMessages: [] } : state;
    case 'run_requested':
      return { ...state, pendingRun: action.run };
    case 'run_aborted':
      return { ...state, pendingRun: null, runNotice: null };
    case 'server':
      return concernsAutomation(state, action.message) ? applyServerMessage(state, action.message) : state;
    case 'socket_closed':
      return {
        ...state,
        status: nextStatus(state.status, 'socket_closed'),
        currentTest: null,
        activeTests: [],
        pendingRun: null,
        runNotice: null,
        generationMessages: [],
      };
    case 'restore':
      if (state.status !== 'idle' || state.testCases.length > 0) return state;
      return { ...state, generationMode: action.mode, targetUrl: action.targetUrl, ...keptWork(action) };
    case 'add_custom_case':
      if (isBusy(state.status)) return state;
      return {
        ...state,
        testCases: [...state.testCases, action.testCase],
        // The page of the cases there are; with none left, the page of this one.
        targetUrl: state.testCases.length > 0 ? (state.targetUrl ?? action.targetUrl) : action.targetUrl,
      };
    case 'remove_case':
      if (isBusy(state.status)) return state;
      return {
        ...state,
        testCases: state.testCases.filter((c) => c.test_name !== action.testName),
        results: state.results.filter((r) => r.testName !== action.testName),
      };
    case 'screenshot_links': {
      const screenshots = withFreshLinks(state.screenshots, action.refs);
      return screenshots === state.screenshots ? state : { ...state, screenshots };
    }
    case 'clear_results':
      return {
        ...state,
        log: [],
        screenshots: [],
        results: [],
        progress: { current: 0, total: 0 },
        runTime: null,
        outcome: null,
        runEngine: null,
        runUsage: null,
        lastError: null,
        status: state.status === 'completed' || state.status === 'failed' ? 'idle' : state.status,
      };
  }
}
