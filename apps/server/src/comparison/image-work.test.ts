import { AbortedError } from '@argus/engine';
import { describe, expect, it } from 'vitest';
import { ImageWorkGate } from './image-work';

/** A piece of work that runs until `finish` is called. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { finish, work: () => done };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('image work gate', () => {
  it('runs at most its size at once and starts the waiting in arrival order', async () => {
    const gate = new ImageWorkGate(2);
    const pieces = [held(), held(), held(), held()];
    const started: number[] = [];
    const runs = pieces.map((p, i) =>
      gate.run(async () => {
        started.push(i);
        await p.work();
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(gate.load).toEqual({ active: 2, waiting: 2 });
    pieces[1].finish();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    pieces[0].finish();
    pieces[2].finish();
    pieces[3].finish();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('lets a stopped comparison leave the queue without taking a turn', async () => {
    const gate = new ImageWorkGate(1);
    const first = held();
    const running = gate.run(first.work);
    const stop = new AbortController();
    let ran = false;
    const waiting = gate.run(async () => {
      ran = true;
    }, stop.signal);
    await settle();
    stop.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
    expect(gate.load).toEqual({ active: 1, waiting: 0 });
    first.finish();
    await running;
    expect(ran).toBe(false);
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('frees its turn when the work fails', async () => {
    const gate = new ImageWorkGate(1);
    await expect(gate.run(() => Promise.reject(new Error('decode failed')))).rejects.toThrow('decode failed');
    expect(await gate.run(async () => 'next')).toBe('next');
  });
});
