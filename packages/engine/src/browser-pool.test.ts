import { describe, expect, it } from 'vitest';
import { QueuePositions, queuedMessage } from './browser-pool';

describe('QueuePositions: the place in line of work that asks for several browsers', () => {
  it('reports the best place of its waiting requests, once per change, only while it holds no browser', () => {
    const told: number[] = [];
    const line = new QueuePositions((position) => told.push(position));
    const a = line.request();
    const b = line.request();
    a.onQueued(3);
    b.onQueued(4);
    expect(told).toEqual([3]);
    a.onQueued(2);
    b.onQueued(3);
    expect(told).toEqual([3, 2]);

    // Under way: one request has its browser; the other's moves are not news.
    a.granted();
    b.onQueued(2);
    b.onQueued(1);
    expect(told).toEqual([3, 2]);

    // Back to waiting with nothing in hand: told again where it stands.
    a.over();
    expect(told).toEqual([3, 2, 1]);
    b.over();
    b.onQueued(5);
    expect(told).toEqual([3, 2, 1]);
  });

  it('counts no waiting time for requests that got a browser at once', () => {
    const line = new QueuePositions();
    const request = line.request();
    request.granted();
    request.over();
    expect(line.waitedMs).toBe(0);
  });

  it('words a place in line as the user reads it', () => {
    expect(queuedMessage(3)).toBe('Waiting for a free browser: 3 ahead');
  });
});
