import { Hand, Maximize2, Minimize2, MousePointer2, RotateCw } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { IconButton } from '../../../components/icon-button';
import { SmallButton } from '../../../components/small-button';
import { Spinner } from '../../../components/spinner';
import { cn } from '../../../lib/cn';
import type { BrowserStatus } from '../model/conversation-state';
import type { TakeoverInput } from '../model/takeover';
import type { VideoFrame } from '../model/video';
import { VideoCanvas } from './video-canvas';

export interface BrowserFrameProps {
  url: string;
  status: BrowserStatus;
  /** Shown while loading: what the server says of the wait ('Waiting for a free browser: 2 ahead'). */
  notice?: string | null;
  fps: number;
  streaming: boolean;
  stopping: boolean;
  subscribeFrames: (listener: (frame: VideoFrame | null) => void) => () => void;
  onStop: () => void;
  onReload: () => void;
  onInput: (input: TakeoverInput) => void;
}

/**
 * docs/PRODUCT.md#live-video: the browser-like frame while streaming: three dots (red stops the session, yellow and
 * green do nothing), reload, the read-only URL, a loading spinner, the live video and fullscreen;
 * beyond the spec, 'Take control' (takeover) and the frame rate.
 */
export function BrowserFrame(props: BrowserFrameProps) {
  const { status, stopping } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const [fullscreen, setFullscreen] = useState(false);
  const [inControl, setInControl] = useState(false);
  const loading = status === 'loading' || status === 'stopping';

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === containerRef.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  useEffect(() => {
    if (stopping) setInControl(false);
  }, [stopping]);

  const toggleFullscreen = useCallback(() => {
    const element = containerRef.current;
    if (!element) return;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void element.requestFullscreen?.().catch(() => {});
  }, []);

  const handBack = useCallback(() => setInControl(false), []);

  return (
    <div
      ref={containerRef}
      className={cn(
        'overflow-hidden border border-slate-300 bg-white shadow-sm',
        fullscreen ? 'flex h-full flex-col rounded-none' : 'rounded-xl',
      )}
      data-testid="browser-frame"
      data-status={status}
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-100 px-3 py-2">
        <div className="flex items-center gap-1.5">
          <button
            type="button"
            onClick={props.onStop}
            disabled={stopping}
            aria-label="Stop session"
            title="Stop session"
            data-testid="stop-dot"
            className="size-3.5 rounded-full bg-red-500 ring-1 ring-red-600/40 hover:bg-red-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50"
          />
          <span className="size-3.5 rounded-full bg-amber-400 ring-1 ring-amber-500/40" aria-hidden />
          <span className="size-3.5 rounded-full bg-emerald-500 ring-1 ring-emerald-600/40" aria-hidden />
        </div>
        <IconButton
          icon={RotateCw}
          label="Reload page"
          onClick={props.onReload}
          disabled={stopping || !props.url}
        />
        <div className="relative min-w-0 flex-1 basis-40">
          <input
            readOnly
            value={props.url}
            aria-label="Current page URL"
            data-testid="current-url"
            placeholder={stopping ? 'Stopping...' : status === 'loading' ? 'Loading...' : 'Start page'}
            className="block w-full truncate rounded-full border border-slate-200 bg-white py-1 pr-8 pl-3 text-xs text-slate-700 placeholder:text-slate-500 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-100 focus:outline-none"
          />
          {loading && (
            <span className="absolute inset-y-0 right-2 flex items-center text-indigo-600">
              <Spinner className="size-3.5 border-[1.5px]" label={stopping ? 'Stopping' : 'Loading page'} />
            </span>
          )}
        </div>
        <span
          className={cn(
            'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium tabular-nums',
            props.streaming ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-200 text-slate-700',
          )}
          data-testid="fps"
          data-fps={props.fps}
          data-streaming={props.streaming}
          title={props.streaming ? 'Frames per second' : 'No new frame for 3 s: the stream is paused'}
        >
          <span
            className={cn('size-1.5 rounded-full', props.streaming ? 'bg-emerald-500' : 'bg-slate-400')}
            aria-hidden
          />
          {props.fps} fps
        </span>
        <SmallButton
          variant={inControl ? 'primary' : 'secondary'}
          icon={inControl ? Hand : MousePointer2}
          onClick={() => setInControl((value) => !value)}
          aria-pressed={inControl}
          disabled={stopping || status === 'stopped'}
          data-testid="take-control"
        >
          {inControl ? 'Hand back' : 'Take control'}
        </SmallButton>
        <IconButton
          icon={fullscreen ? Minimize2 : Maximize2}
          label={fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
          onClick={toggleFullscreen}
          pressed={fullscreen}
        />
      </div>
      {status === 'loading' && props.notice && (
        <p
          role="status"
          data-testid="browser-notice"
          className="border-b border-slate-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-800"
        >
          {props.notice}
        </p>
      )}
      <div className={cn(fullscreen && 'min-h-0 flex-1 bg-slate-900')}>
        <VideoCanvas
          subscribeFrames={props.subscribeFrames}
          inControl={inControl}
          onInput={props.onInput}
          onHandBack={handBack}
          fullscreen={fullscreen}
        />
      </div>
      {inControl && (
        <p className="border-t border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-900" role="status">
          You are in control: clicks, scrolling and keys go to the page. Press Escape or Hand back to return
          to the chat.
        </p>
      )}
    </div>
  );
}
