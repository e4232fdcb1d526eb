import type { Writable } from 'node:stream';

/**
 * Where the server's pino logger writes: standard output, without ever blocking the process on it.
 *
 * pino's default destination writes asynchronously, but flushes synchronously when the process exits,
 * retrying EAGAIN with `Atomics.wait` sleeps for as long as the pipe stays full. A parent that stops
 * reading standard output therefore kept a stopping server alive forever, its main thread in that loop
 * and its shutdown timer never firing (issue 12; reproduced in shutdown.api.test.ts). This one hands
 * lines to `process.stdout` (a non-blocking libuv stream when standard output is a pipe or socket),
 * keeps at most `maxBufferedBytes` queued behind a reader that does not keep up, drops and counts
 * lines past that (saying how many once the reader catches up), and is flushed at shutdown with a
 * deadline rather than at exit.
 */
export interface LogDestination {
  /** pino's destination interface: one serialized log line. */
  write(line: string): boolean;
  /** Lines dropped so far because the reader was not keeping up (or had gone). */
  readonly dropped: number;
  /**
   * Resolves `true` once every line written so far has been handed to the operating system, or
   * `false` when `deadlineMs` passes first (what is left is dropped at exit). Never blocks.
   */
  flush(deadlineMs: number): Promise<boolean>;
}

export interface LogDestinationOptions {
  /** Bytes queued behind a slow reader before lines are dropped. @default 4 MiB */
  maxBufferedBytes?: number;
}

export function createLogDestination(
  stream: Writable = process.stdout,
  { maxBufferedBytes = 4 * 1024 * 1024 }: LogDestinationOptions = {},
): LogDestination {
  let dropped = 0;
  let droppedUnreported = 0;
  let broken = false;
  // EPIPE and the like: the reader is gone. Without a listener the error would crash the process.
  stream.on('error', () => {
    broken = true;
  });
  stream.on('drain', () => {
    if (droppedUnreported === 0 || broken) return;
    const notice = JSON.stringify({
      level: 40,
      time: Date.now(),
      pid: process.pid,
      msg: `${droppedUnreported} log lines dropped: standard output was not being read`,
    });
    droppedUnreported = 0;
    stream.write(`${notice}\n`);
  });

  return {
    write(line: string) {
      if (broken || stream.writableLength + line.length > maxBufferedBytes) {
        dropped++;
        droppedUnreported++;
        return true;
      }
      stream.write(line);
      return true;
    },
    get dropped() {
      return dropped;
    },
    flush(deadlineMs: number) {
      if (broken || stream.writableLength === 0) return Promise.resolve(!broken);
      return new Promise<boolean>((resolve) => {
        const done = (drained: boolean) => {
          clearTimeout(timer);
          stream.off('drain', onDrain);
          resolve(drained);
        };
        const onDrain = () => {
          if (stream.writableLength === 0) done(true);
        };
        const timer = setTimeout(() => done(false), deadlineMs);
        timer.unref();
        stream.on('drain', onDrain);
      });
    },
  };
}
