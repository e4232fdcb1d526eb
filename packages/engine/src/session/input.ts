import type { Page } from 'playwright-core';
import { clipboardAction, performClipboard, refuseChording, type SessionClipboard } from '../clipboard';
import type { NavigationGuard } from './navigation-guard';
import type { OperationOptions } from './options';

export type PointerButton = 'left' | 'middle' | 'right';
/** A pointer event at viewport coordinates (CSS pixels from the viewport's top left). */
export interface PointerInput {
  type: 'move' | 'down' | 'up' | 'click';
  x: number;
  y: number;
  /** @default 'left' */
  button?: PointerButton;
}
export interface WheelInput {
  x: number;
  y: number;
  deltaX: number;
  deltaY: number;
}
/** A key by its `KeyboardEvent.key` name (`Enter`, `a`, `ArrowDown`) or a chord (`Control+A`). */
export interface KeyInput {
  type: 'down' | 'up' | 'press';
  key: string;
}

const MAX_TYPED = 10_000;

/**
 * Input a person sends to the live page (taking over from the engine): mouse and keyboard at viewport
 * coordinates. Each event is checked before it reaches the browser, and is an operation that may move
 * the page, like a step.
 */
export class SessionInput {
  constructor(
    private readonly page: Page,
    private readonly guard: NavigationGuard,
    /** The session's own clipboard, shared with its steps. */
    private readonly clipboard: SessionClipboard,
    private readonly stepTimeoutMs: number,
  ) {}

  /** A pointer event at viewport coordinates: `click` is a press and release with the button. */
  async pointer(event: PointerInput, options: OperationOptions = {}): Promise<void> {
    const { x, y } = coordinates(event);
    const button = event.button ?? 'left';
    if (!['left', 'middle', 'right'].includes(button)) throw new RangeError(`Unknown button ${button}`);
    if (!['move', 'down', 'up', 'click'].includes(event.type))
      throw new RangeError(`Unknown pointer event ${event.type}`);
    const mouse = this.page.mouse;
    return this.send(options, async () => {
      if (event.type === 'click') return mouse.click(x, y, { button });
      await mouse.move(x, y);
      if (event.type === 'down') await mouse.down({ button });
      if (event.type === 'up') await mouse.up({ button });
    });
  }

  /** A wheel turn over the point (x, y) of the viewport. */
  async wheel(event: WheelInput, options: OperationOptions = {}): Promise<void> {
    const { x, y } = coordinates(event);
    if (!Number.isFinite(event.deltaX) || !Number.isFinite(event.deltaY))
      throw new RangeError('Wheel deltas must be finite numbers');
    return this.send(options, async () => {
      await this.page.mouse.move(x, y);
      await this.page.mouse.wheel(event.deltaX, event.deltaY);
    });
  }

  /**
   * A key going down, coming up, or both, sent to whatever has the focus. Copy, cut and paste chords
   * (Control+C, Shift+Insert…, or C with Control held by an earlier `down`) use the session's own
   * clipboard instead of reaching the browser, whose clipboard every user shares.
   */
  async key(event: KeyInput, options: OperationOptions = {}): Promise<void> {
    if (typeof event.key !== 'string' || event.key === '' || event.key.length > 64)
      throw new RangeError('A key is a key name such as "Enter" or "a"');
    if (!['down', 'up', 'press'].includes(event.type))
      throw new RangeError(`Unknown key event ${event.type}`);
    const keyboard = this.page.keyboard;
    const action = event.type === 'up' ? null : clipboardAction(event.key, this.clipboard.held);
    return this.send(options, async () => {
      if (action) return performClipboard(this.page, this.clipboard, action);
      if (event.type === 'down') await keyboard.down(event.key);
      else if (event.type === 'up') await keyboard.up(event.key);
      else await keyboard.press(event.key);
      this.clipboard.track(event.type, event.key);
    });
  }

  /** Types text into whatever has the focus, a key press per character. */
  async type(text: string, options: OperationOptions = {}): Promise<void> {
    if (typeof text !== 'string' || text.length > MAX_TYPED)
      throw new RangeError(`At most ${MAX_TYPED} characters can be typed at once`);
    return this.send(options, async () => {
      refuseChording(this.clipboard);
      await this.page.keyboard.type(text);
    });
  }

  private send(options: OperationOptions, work: () => Promise<void>): Promise<void> {
    const timeout = options.timeoutMs ?? this.stepTimeoutMs;
    return this.guard.changing(
      options,
      timeout,
      `Input timed out after ${timeout} ms`,
      async (_signal, since) => {
        await this.guard.beforeChange(since);
        await work();
      },
    );
  }
}

function coordinates(event: { x: number; y: number }): { x: number; y: number } {
  if (!Number.isFinite(event.x) || !Number.isFinite(event.y))
    throw new RangeError('Viewport coordinates must be finite numbers');
  return { x: event.x, y: event.y };
}
