import { describe, expect, it } from 'vitest';
import { type Lease, LeftLine, RunLine } from './run-line';
import { turnOrder } from './turn-order';

/** Enters `count` runs of `orgId` into the line; each records its start in `starts` and holds its lease. */
function enterRuns(line: RunLine, orgId: string, count: number, starts: string[], leases: Lease[]) {
  return Array.from({ length: count }, (_, i) => {
    const name = `${orgId}${i + 1}`;
    const ticket = line.enter({ orgId, browsers: 2, key: name });
    void ticket.admitted.then(
      (lease) => {
        starts.push(name);
        leases.push(lease);
      },
      () => undefined,
    );
    return ticket;
  });
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('turnOrder', () => {
  it('takes the head of each organization in rotation, then the next of each, fewest going first', () => {
    const byOrg = new Map([
      ['a', ['a1', 'a2', 'a3']],
      ['b', ['b1']],
      ['c', ['c1', 'c2']],
    ]);
    const none = () => 0;
    expect(turnOrder({ byOrg, rotation: ['a', 'b', 'c'], running: none })).toEqual([
      'a1',
      'b1',
      'c1',
      'a2',
      'c2',
      'a3',
    ]);
    // An organization with work going waits behind those with none.
    const aGoing = (org: string) => (org === 'a' ? 2 : 0);
    expect(turnOrder({ byOrg, rotation: ['a', 'b', 'c'], running: aGoing })).toEqual([
      'b1',
      'c1',
      'c2',
      'a1',
      'a2',
      'a3',
    ]);
  });
});

describe('RunLine', () => {
  it("an organization's one run starts before another organization's ten queued runs have all run", async () => {
    // Two runs at once on the server (4 browsers, 2 a run), two per organization.
    const line = new RunLine({ browsers: 4, perOrg: 2 });
    const starts: string[] = [];
    const leases: Lease[] = [];
    enterRuns(line, 'a', 10, starts, leases);
    const [single] = enterRuns(line, 'b', 1, starts, leases);
    await settle();
    expect(starts).toEqual(['a1', 'a2']);
    // Next in line: b's one run, whatever a still has queued.
    expect(single.place()).toBe(0);
    leases.shift()?.release();
    await settle();
    // b started when the first run ended: within one run's time.
    expect(starts).toEqual(['a1', 'a2', 'b1']);
    while (leases.length > 0) {
      leases.shift()?.release();
      await settle();
    }
    expect(starts).toEqual(['a1', 'a2', 'b1', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10']);
  });

  it("holds an organization to its concurrency while another's work uses the free browsers", async () => {
    const line = new RunLine({ browsers: 8, perOrg: 2 });
    const starts: string[] = [];
    const leases: Lease[] = [];
    enterRuns(line, 'a', 4, starts, leases);
    enterRuns(line, 'b', 1, starts, leases);
    await settle();
    expect(starts).toEqual(['a1', 'a2', 'b1']);
    expect(line.runningOf('a')).toBe(2);
  });

  it('tells a waiting run its place each time it moves up, down to 0', async () => {
    const line = new RunLine({ browsers: 2, perOrg: 1 });
    const starts: string[] = [];
    const leases: Lease[] = [];
    enterRuns(line, 'a', 3, starts, leases);
    const places: number[] = [];
    const ticket = line.enter({ orgId: 'a', browsers: 2, key: 'a4', onPlace: (ahead) => places.push(ahead) });
    expect(line.placeOfKey('a4')).toBe(2);
    for (let i = 0; i < 3; i++) {
      await settle();
      leases.shift()?.release();
    }
    await ticket.admitted;
    expect(places).toEqual([2, 1, 0]);
    expect(ticket.place()).toBeNull();
    expect(line.placeOfKey('a4')).toBeNull();
  });

  it('a run that leaves the line never starts, and those behind it move up', async () => {
    const line = new RunLine({ browsers: 1, perOrg: 1 });
    const starts: string[] = [];
    const leases: Lease[] = [];
    const [, second, third] = enterRuns(line, 'a', 3, starts, leases);
    await settle();
    expect(third.place()).toBe(1);
    expect(second.leave()).toBe(true);
    await expect(second.admitted).rejects.toBeInstanceOf(LeftLine);
    expect(third.place()).toBe(0);
    expect(second.leave()).toBe(false);
    leases.shift()?.release();
    await settle();
    leases.shift()?.release();
    await settle();
    expect(starts).toEqual(['a1', 'a3']);
    expect(line.waiting).toBe(0);
  });

  it('starts work with the browsers free then, at least one, rather than wait for all it wanted', async () => {
    const line = new RunLine({ browsers: 3, perOrg: 5 });
    const first = await line.enter({ orgId: 'a', browsers: 2 }).admitted;
    const second = await line.enter({ orgId: 'b', browsers: 2 }).admitted;
    expect([first.browsers, second.browsers]).toEqual([2, 1]);
  });
});
