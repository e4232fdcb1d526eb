import type { ServerMessage } from '@argus/protocol';
import { MonitorPlay } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Panel } from '../../../components/panel';
import { framesPerSecond, readVideoPreference, writeVideoPreference } from '../model/run-video';
import type { AutomationRealtime } from '../types';

export interface RunVideoPanelProps {
  realtime: AutomationRealtime;
  /** The automation session whose runs are watched (frames are addressed to it). */
  sessionId: string | null;
  running: boolean;
}

const storage = () => (typeof window === 'undefined' ? undefined : window.localStorage);

/**
 * Live video of the test in focus while a run executes (off by default): the server screencasts that
 * test's browser and sends `video_frame`s addressed to this session; only the latest frame is drawn.
 */
export function RunVideoPanel({ realtime, sessionId, running }: RunVideoPanelProps) {
  const [on, setOn] = useState(() => readVideoPreference(storage()));
  const [frame, setFrame] = useState<string | null>(null);
  const [fps, setFps] = useState(0);
  const arrivals = useRef<number[]>([]);
  const connected = realtime.isConnected;

  // Tell the server whenever it matters: the toggle, a new session, a (re)connected socket.
  useEffect(() => {
    if (!connected || !sessionId) return;
    try {
      realtime.send({ type: 'automation_video', data: { session_id: sessionId, enabled: on } });
    } catch {
      // Disconnected meanwhile: sent again on reconnect.
    }
  }, [on, sessionId, connected, realtime]);

  useEffect(() => {
    if (!on) return;
    return realtime.client.onMessage((message: ServerMessage) => {
      if (message.type !== 'video_frame' || message.session_id !== sessionId) return;
      const now = Date.now();
      arrivals.current = [...arrivals.current.filter((t) => now - t <= 1000), now];
      setFrame(message.data.frame);
    });
  }, [on, sessionId, realtime]);

  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setFps(framesPerSecond(arrivals.current, Date.now())), 1000);
    return () => clearInterval(timer);
  }, [on]);

  useEffect(() => {
    if (!running) setFps(0);
  }, [running]);

  const toggle = () => {
    const next = !on;
    setOn(next);
    writeVideoPreference(storage(), next);
    if (!next) {
      setFrame(null);
      arrivals.current = [];
    }
  };

  return (
    <Panel
      title="Live video"
      icon={MonitorPlay}
      testId="run-video-panel"
      subtitle={on ? 'The test in focus, as it runs' : 'Watch the test in focus while a run executes'}
      aside={
        <label className="flex cursor-pointer items-center gap-2 text-xs font-medium text-slate-600">
          <input
            type="checkbox"
            role="switch"
            aria-checked={on}
            className="size-4 accent-indigo-600"
            checked={on}
            onChange={toggle}
            data-testid="run-video-toggle"
          />
          Watch runs
        </label>
      }
      bodyClassName={on ? 'p-3' : 'hidden'}
    >
      {on && (
        <div className="relative aspect-[854/480] w-full overflow-hidden rounded-lg bg-slate-900">
          {frame ? (
            <img
              src={`data:image/jpeg;base64,${frame}`}
              alt="Live view of the test in focus"
              className="size-full object-contain"
              data-testid="run-video-frame"
            />
          ) : (
            <p className="absolute inset-0 flex items-center justify-center px-4 text-center text-sm text-slate-300">
              {running ? 'Waiting for video stream...' : 'Video appears here while a run executes.'}
            </p>
          )}
          {frame && running && (
            <span
              className="absolute top-2 right-2 rounded bg-black/60 px-1.5 py-0.5 text-xs text-white tabular-nums"
              data-testid="run-video-fps"
            >
              {fps} fps
            </span>
          )}
        </div>
      )}
    </Panel>
  );
}
