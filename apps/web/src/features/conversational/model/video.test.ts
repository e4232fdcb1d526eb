import { describe, expect, it } from 'vitest';
import { FpsMeter, FrameBuffer } from './video';

describe('video (docs/PRODUCT.md#live-video)', () => {
  it('keeps only the latest 10 frames', () => {
    const buffer = new FrameBuffer();
    for (let i = 1; i <= 25; i += 1) buffer.push(`data:image/jpeg;base64,${i}`, i);
    expect(buffer.size).toBe(10);
    expect(buffer.all()[0]?.timestamp).toBe(16);
    expect(buffer.latest?.frame).toBe('data:image/jpeg;base64,25');
    expect(buffer.latest?.id).toBe('frame-25');
    buffer.clear();
    expect(buffer.latest).toBeNull();
  });

  it('recomputes the frame rate every second', () => {
    const meter = new FpsMeter(0);
    for (let t = 0; t < 1000; t += 40) meter.frame(t);
    expect(meter.tick(1000)).toBe(25);
    expect(meter.fps).toBe(25);
    meter.frame(1500);
    expect(meter.tick(2000)).toBe(1);
    expect(meter.tick(3000)).toBe(0);
  });

  it('treats the stream as stopped after 3 s without frames', () => {
    const meter = new FpsMeter(0);
    expect(meter.isStalled(0)).toBe(true);
    meter.frame(1000);
    expect(meter.isStalled(3999)).toBe(false);
    expect(meter.isStalled(4001)).toBe(true);
    meter.reset(5000);
    expect(meter.isStalled(5001)).toBe(true);
    expect(meter.fps).toBe(0);
  });
});
