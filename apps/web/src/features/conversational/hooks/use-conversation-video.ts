import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FPS_INTERVAL_MS, FpsMeter, FrameBuffer, type VideoFrame } from '../model/video';

/**
 * The live video: frames kept outside React state (latest 10) and drawn by the canvas as they come,
 * the fps meter and whether the stream is flowing.
 */
export function useConversationVideo() {
  const frames = useMemo(() => new FrameBuffer(), []);
  const meter = useMemo(() => new FpsMeter(Date.now()), []);
  const [fps, setFps] = useState(0);
  const [streaming, setStreaming] = useState(false);

  const frameListeners = useRef(new Set<(frame: VideoFrame | null) => void>());
  const emitFrame = useCallback((frame: VideoFrame | null) => {
    for (const listener of frameListeners.current) listener(frame);
  }, []);
  const subscribeFrames = useCallback(
    (listener: (frame: VideoFrame | null) => void) => {
      frameListeners.current.add(listener);
      listener(frames.latest);
      return () => {
        frameListeners.current.delete(listener);
      };
    },
    [frames],
  );
  const clearFrames = useCallback(() => {
    frames.clear();
    meter.reset(Date.now());
    setFps(0);
    setStreaming(false);
    emitFrame(null);
  }, [frames, meter, emitFrame]);

  return { frames, meter, fps, setFps, streaming, setStreaming, emitFrame, subscribeFrames, clearFrames };
}

export type ConversationVideo = ReturnType<typeof useConversationVideo>;

/** The fps, recomputed every second while a session is active; the stream counts as stopped after 3 s without frames. */
export function useFpsTicks(active: boolean, { meter, setFps, setStreaming }: ConversationVideo) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      const now = Date.now();
      setFps(meter.tick(now));
      setStreaming(!meter.isStalled(now));
    }, FPS_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [active, meter, setFps, setStreaming]);
}
