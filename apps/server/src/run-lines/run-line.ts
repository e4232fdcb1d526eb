import { nextOrg, turnOrder } from './turn-order';

/** What a line lets run at once: browsers over the whole server, and work per organization. */
export interface RunLineLimits {
  /** Browser contexts the server's automation may hold at once (MAX_BROWSERS). */
  browsers: number;
  /** Runs and generations one organization may have going at once (ORG_MAX_CONCURRENT_RUNS). */
  perOrg: number;
}

/** The browsers a piece of work holds once its turn came; released when the work is over. */
export interface Lease {
  readonly browsers: number;
  release(): void;
}

/** Why a ticket's `admitted` rejects: it left the line (cancelled, stopped) before its turn. */
export class LeftLine extends Error {
  constructor() {
    super('Left the line before its turn');
  }
}

export interface EnterOptions {
  orgId: string;
  /** Browsers it would like; it starts with what is free then, at least one. */
  browsers: number;
  /** A name to find it by while it waits (a run's id), for the run API's `queue_position`. */
  key?: string;
  /** Told its place (how many are ahead) when it enters waiting and each time the place changes. */
  onPlace?: (ahead: number) => void;
}

/** One piece of work's place in the line. */
export interface Ticket {
  /** Settles when its turn comes (with the browsers it holds), or rejects with LeftLine. */
  readonly admitted: Promise<Lease>;
  /** How many are ahead of it while it waits; null once it started or left. */
  place(): number | null;
  /** Takes it out of the line if it still waits: true then (it never starts). */
  leave(): boolean;
}

interface Waiting {
  orgId: string;
  wanted: number;
  key?: string;
  onPlace?: (ahead: number) => void;
  told?: number;
  admit: (lease: Lease) => void;
  refuse: (error: Error) => void;
}

/**
 * The line of one process's automation work (runs and generations): work starts at once while the
 * server has a free browser and its organization is under ORG_MAX_CONCURRENT_RUNS; past either it
 * waits, told its place, and starts when its turn comes (turn-order.ts: round-robin between
 * organizations, first in first out within one). Nothing is ever refused for being busy.
 */
export class RunLine {
  private readonly byOrg = new Map<string, Waiting[]>();
  private rotation: string[] = [];
  private readonly running = new Map<string, number>();
  private browsersInUse = 0;

  constructor(private readonly limits: RunLineLimits) {}

  enter(options: EnterOptions): Ticket {
    let entry!: Waiting;
    const admitted = new Promise<Lease>((admit, refuse) => {
      entry = {
        orgId: options.orgId,
        wanted: Math.max(1, options.browsers),
        key: options.key,
        onPlace: options.onPlace,
        admit,
        refuse,
      };
    });
    admitted.catch(() => undefined);
    const line = this.byOrg.get(entry.orgId) ?? [];
    line.push(entry);
    this.byOrg.set(entry.orgId, line);
    if (!this.rotation.includes(entry.orgId)) this.rotation.push(entry.orgId);
    this.pump();
    return {
      admitted,
      place: () => this.placeOf(entry),
      leave: () => this.leave(entry),
    };
  }

  /** How many are ahead of the waiting work entered with `key`; null when none waits so. */
  placeOfKey(key: string): number | null {
    const order = this.order();
    const index = order.findIndex((entry) => entry.key === key);
    return index < 0 ? null : index;
  }

  /** Work of the organization going now (for tests and diagnostics). */
  runningOf(orgId: string): number {
    return this.running.get(orgId) ?? 0;
  }

  /** Work waiting, all organizations together. */
  get waiting(): number {
    let count = 0;
    for (const line of this.byOrg.values()) count += line.length;
    return count;
  }

  private order(): Waiting[] {
    return turnOrder({
      byOrg: this.byOrg,
      rotation: this.rotation,
      running: (org) => this.runningOf(org),
    });
  }

  private placeOf(entry: Waiting): number | null {
    const index = this.order().indexOf(entry);
    return index < 0 ? null : index;
  }

  private leave(entry: Waiting): boolean {
    const line = this.byOrg.get(entry.orgId);
    const index = line?.indexOf(entry) ?? -1;
    if (!line || index < 0) return false;
    line.splice(index, 1);
    if (line.length === 0) this.dropOrg(entry.orgId);
    entry.refuse(new LeftLine());
    this.tellPlaces();
    return true;
  }

  private dropOrg(orgId: string): void {
    this.byOrg.delete(orgId);
    this.rotation = this.rotation.filter((org) => org !== orgId);
  }

  /** Starts every piece of work whose turn has come, then tells the rest their places. */
  private pump(): void {
    const { perOrg, browsers } = this.limits;
    while (browsers - this.browsersInUse >= 1) {
      const going = (o: string) => this.runningOf(o);
      const org = nextOrg(this.rotation, going, (o) => going(o) < perOrg);
      if (org === null) break;
      const line = this.byOrg.get(org) ?? [];
      const entry = line.shift();
      // Served: to the back of the rotation, or out of it when its line is empty.
      this.rotation = this.rotation.filter((o) => o !== org);
      if (line.length > 0) this.rotation.push(org);
      else this.byOrg.delete(org);
      if (entry) entry.admit(this.lease(entry));
    }
    this.tellPlaces();
  }

  private lease(entry: Waiting): Lease {
    const count = Math.min(entry.wanted, this.limits.browsers - this.browsersInUse);
    this.browsersInUse += count;
    this.running.set(entry.orgId, this.runningOf(entry.orgId) + 1);
    let released = false;
    return {
      browsers: count,
      release: () => {
        if (released) return;
        released = true;
        this.browsersInUse -= count;
        const left = this.runningOf(entry.orgId) - 1;
        if (left > 0) this.running.set(entry.orgId, left);
        else this.running.delete(entry.orgId);
        this.pump();
      },
    };
  }

  private tellPlaces(): void {
    this.order().forEach((entry, ahead) => {
      if (entry.told === ahead) return;
      entry.told = ahead;
      entry.onPlace?.(ahead);
    });
  }
}
