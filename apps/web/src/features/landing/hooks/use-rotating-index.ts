import { useCallback, useEffect, useState } from 'react';

/**
 * An index that advances every `intervalMs` across `count` items (setInterval), unless paused.
 * `select(i)` jumps to an item and restarts the interval so the chosen one gets its full time.
 */
export function useRotatingIndex(count: number, intervalMs: number, paused = false) {
  const [index, setIndex] = useState(0);
  const [restarts, setRestarts] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `restarts` restarts the interval after a manual selection
  useEffect(() => {
    if (paused || count < 2) return;
    const timer = window.setInterval(() => setIndex((current) => (current + 1) % count), intervalMs);
    return () => window.clearInterval(timer);
  }, [count, intervalMs, paused, restarts]);

  const select = useCallback(
    (next: number) => {
      setIndex(((next % count) + count) % count);
      setRestarts((n) => n + 1);
    },
    [count],
  );

  return { index, select };
}
