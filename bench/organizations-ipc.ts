import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { FromServer, ToServer } from '../apps/server/src/testing/org-lookup-server';
import { freePort, REPO_ROOT, testServerEnv } from '../apps/server/src/testing/spawn-server';

export { LOOKUP_HEADER, type Lookup } from '../apps/server/src/testing/org-lookup-server';

// The bench's side of its server (bench/organizations-server.ts, over
// apps/server/src/testing/org-lookup-server.ts): the process, and what they say to each other.

/** The bench's server, and a way to ask it things over IPC. */
export class BenchServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly output: () => string,
  ) {}

  /** checkRole's own time in the server's process, nanoseconds a call (timed there at start). */
  checkRoleNs = Number.NaN;

  get pid(): number {
    return this.child.pid ?? 0;
  }

  static async start(dataDir: string, env: Record<string, string>): Promise<BenchServer> {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'bench/organizations-server.ts')],
      {
        cwd: REPO_ROOT,
        env: testServerEnv(port, dataDir, env),
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      },
    );
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const server = new BenchServer(child, `http://127.0.0.1:${port}`, () => output);
    const ready = await server.next('ready', 120_000);
    server.checkRoleNs = ready.checkRoleNs;
    console.log(`  server up, ${ready.memberships} memberships known for the requests that skip the lookup`);
    return server;
  }

  /** The next message of `type` from the server; fails with its output if it exits first. */
  next<T extends FromServer['type']>(type: T, timeoutMs = 30_000): Promise<Extract<FromServer, { type: T }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => fail(new Error(`no ${type} from the server in ${timeoutMs} ms`)),
        timeoutMs,
      );
      const onMessage = (message: FromServer) => {
        if (message.type !== type) return;
        cleanUp();
        resolve(message as Extract<FromServer, { type: T }>);
      };
      const onExit = (code: number | null) => fail(new Error(`the server exited (${code})`));
      const cleanUp = () => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
      };
      const fail = (error: Error) => {
        cleanUp();
        reject(new Error(`${error.message}:\n${this.output()}`));
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
    });
  }

  async ask<T extends FromServer['type']>(message: ToServer, answer: T) {
    const next = this.next(answer);
    this.child.send(message);
    return next;
  }

  async stop() {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.send({ type: 'stop' } satisfies ToServer);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
