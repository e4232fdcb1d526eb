import { useCallback, useRef, useState } from 'react';
import {
  type ComparisonEvent,
  type ComparisonState,
  comparisonReducer,
  INITIAL_STATE,
} from '../model/comparison-state';

/** The comparison's state (docs/PRODUCT.md#comparison-progress), and the same state as it is now for the handlers. */
export function useComparisonState() {
  const [state, setState] = useState<ComparisonState>(INITIAL_STATE);
  // The handlers read the state as it is now, not as it was at the last render.
  const stateRef = useRef(state);
  const dispatch = useCallback((event: ComparisonEvent) => {
    const before = stateRef.current;
    const after = comparisonReducer(before, event);
    stateRef.current = after;
    setState(after);
    return { before, after };
  }, []);
  return { state, stateRef, dispatch };
}
