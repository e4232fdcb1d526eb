import type { ClientMessageOf } from '@argus/protocol';
import { AppError } from '../errors';
import { checkPendingInputs, type LimitsConfig } from './limits';
import { errorText, type Live } from './live-browsers';
import type { LiveTimers } from './timers';

export interface TakeoverDeps {
  config: LimitsConfig;
  /** Every input restarts the idle clock. */
  timers: Pick<LiveTimers, 'touch'>;
}

/** The user driving the live browser by hand: pointer, wheel and key events on the video canvas. */
export class Takeover {
  constructor(private readonly deps: TakeoverDeps) {}

  /**
   * `browser_input` (takeover): a pointer, wheel or key event on the canvas, mapped to the page's
   * viewport (the ratio of the viewport to the canvas the client drew the frame at) and sent to the
   * page through CDP input events, in the order they came. A pointer move waiting its turn is replaced
   * by a newer one.
   */
  async input(live: Live | undefined, data: ClientMessageOf<'browser_input'>['data']): Promise<void> {
    const session = live?.session;
    if (!live || live.closing || !session || session.closed) {
      throw new AppError('BAD_REQUEST', 'No live browser is open for this conversation: start one first.');
    }
    const { input, canvas } = data;
    // A move replaces the one waiting, if any, so only inputs that add to the queue are counted.
    const queues = !(input.type === 'pointer' && input.action === 'move' && live.pendingMove);
    if (queues) checkPendingInputs(this.deps.config, live.pendingInputs);
    this.deps.timers.touch(live);
    const viewport = session.viewport;
    const at = (x: number, y: number) => ({
      x: clamp((x * viewport.width) / canvas.width, 0, viewport.width - 1),
      y: clamp((y * viewport.height) / canvas.height, 0, viewport.height - 1),
    });
    let work: Promise<void>;
    if (input.type === 'pointer' && input.action === 'move') {
      const point = at(input.x, input.y);
      if (live.pendingMove) {
        live.pendingMove.x = point.x;
        live.pendingMove.y = point.y;
        work = live.pendingMove.done;
      } else {
        const move = { ...point, done: Promise.resolve() };
        move.done = this.queue(live, () => {
          if (live.pendingMove === move) live.pendingMove = null;
          return session.pointer({ type: 'move', x: move.x, y: move.y });
        });
        live.pendingMove = move;
        work = move.done;
      }
    } else if (input.type === 'pointer') {
      const point = at(input.x, input.y);
      work = this.queue(live, () => session.pointer({ type: input.action, ...point, button: input.button }));
    } else if (input.type === 'wheel') {
      const point = at(input.x, input.y);
      work = this.queue(live, () => session.wheel({ ...point, deltaX: input.deltaX, deltaY: input.deltaY }));
    } else {
      work = this.queue(live, () => session.key({ type: input.action, key: input.key }));
    }
    try {
      await work;
    } catch (error) {
      if (live.closing || session.closed) return;
      throw new AppError('BAD_REQUEST', `That input did not reach the page: ${errorText(error)}`);
    }
  }

  private queue(live: Live, job: () => Promise<void>): Promise<void> {
    live.pendingInputs++;
    const run = live.inputs.then(job).finally(() => {
      live.pendingInputs--;
    });
    live.inputs = run.catch(() => {});
    return run;
  }
}

function clamp(n: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, n));
}
