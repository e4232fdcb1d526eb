import type { Redis } from 'ioredis';
import { turnOrder } from './turn-order';

/**
 * The line of automation work when REDIS_URL is set (docs/DEPLOYMENT.md#how-work-flows): the same
 * turns as one process's (turn-order.ts: least work going first between organizations, FIFO within
 * one), held in Redis so that every web process and worker shares it. BullMQ's queue is first in
 * first out over everyone, and its groups are a paid feature, so a web process puts each piece of
 * work in its organization's line here and adds an anonymous turn to BullMQ; the worker that takes a
 * turn takes the line's next entry (`take`), whose organization is under ORG_MAX_CONCURRENT_RUNS. Which
 * work starts is decided when a worker is free, fairly, in one script.
 *
 * Keys, under `prefix` (scale/redis-keys.ts):
 * - `turns`: the organizations with waiting work, the one served longest ago first;
 * - `org:<org>`: an organization's waiting entries, oldest first;
 * - `entry:<id>`: an entry's payload (JSON), until it is taken or leaves;
 * - `going:<org>`: the BullMQ jobs doing the organization's work now.
 */
export interface RedisLineOptions {
  redis: Redis;
  prefix: string;
  /** Where BullMQ keeps a job's hash (`bull:<queue>:`): a job gone or finished no longer counts as going. */
  jobPrefix: string;
}

/** What `take` answers: an entry to run, none waiting at all, or work waiting whose organizations are all busy. */
export type Taken = { id: string; payload: string } | 'empty' | 'busy';

// KEYS: turns, org line, entry. ARGV: org, id, payload.
const ENTER = `
redis.call('SET', KEYS[3], ARGV[3])
redis.call('RPUSH', KEYS[2], ARGV[2])
-- (no LPOS: it needs Redis 6.0.6, and the rotation is as long as the organizations waiting)
for _, org in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  if org == ARGV[1] then return 1 end
end
redis.call('RPUSH', KEYS[1], ARGV[1])
return 1`;

// KEYS: turns, org line, entry. ARGV: org, id.
const LEAVE = `
local removed = redis.call('LREM', KEYS[2], 1, ARGV[2])
if removed == 0 then return 0 end
redis.call('DEL', KEYS[3])
if redis.call('LLEN', KEYS[2]) == 0 then redis.call('LREM', KEYS[1], 0, ARGV[1]) end
return 1`;

// KEYS: turns. ARGV: per-org limit, the taking job's id, prefix, job prefix.
// Prunes each organization's going set of jobs that are gone or finished (a worker that died), then
// takes the head of the line of the organization with the least work going among those under the limit.
const TAKE = `
local turns = redis.call('LRANGE', KEYS[1], 0, -1)
if #turns == 0 then return {'empty'} end
local limit = tonumber(ARGV[1])
local best, bestGoing = nil, nil
for _, org in ipairs(turns) do
  local goingKey = ARGV[3] .. 'going:' .. org
  for _, job in ipairs(redis.call('SMEMBERS', goingKey)) do
    local jobKey = ARGV[4] .. job
    if redis.call('EXISTS', jobKey) == 0 or redis.call('HEXISTS', jobKey, 'finishedOn') == 1 then
      redis.call('SREM', goingKey, job)
    end
  end
  local going = redis.call('SCARD', goingKey)
  if going < limit and (best == nil or going < bestGoing) then best, bestGoing = org, going end
end
if not best then return {'busy'} end
local line = ARGV[3] .. 'org:' .. best
local id = redis.call('LPOP', line)
redis.call('LREM', KEYS[1], 1, best)
if redis.call('LLEN', line) > 0 then redis.call('RPUSH', KEYS[1], best) end
if not id then return {'busy'} end
local entryKey = ARGV[3] .. 'entry:' .. id
local payload = redis.call('GET', entryKey)
redis.call('DEL', entryKey)
redis.call('SADD', ARGV[3] .. 'going:' .. best, ARGV[2])
return {'taken', id, payload or ''}`;

// KEYS: turns. ARGV: prefix. Answers [org, going, count, ids...] per organization in rotation.
const SNAPSHOT = `
local out = {}
for _, org in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local ids = redis.call('LRANGE', ARGV[1] .. 'org:' .. org, 0, -1)
  table.insert(out, org)
  table.insert(out, redis.call('SCARD', ARGV[1] .. 'going:' .. org))
  table.insert(out, #ids)
  for _, id in ipairs(ids) do table.insert(out, id) end
end
return out`;

export class RedisLine {
  constructor(private readonly options: RedisLineOptions) {}

  private key(name: string): string {
    return `${this.options.prefix}${name}`;
  }

  /** Puts an entry at the end of its organization's line. */
  async enter(orgId: string, id: string, payload: string): Promise<void> {
    await this.options.redis.eval(
      ENTER,
      3,
      this.key('turns'),
      this.key(`org:${orgId}`),
      this.key(`entry:${id}`),
      orgId,
      id,
      payload,
    );
  }

  /** Takes an entry out of the line if it still waits: true then (it never starts). */
  async leave(orgId: string, id: string): Promise<boolean> {
    const removed = await this.options.redis.eval(
      LEAVE,
      3,
      this.key('turns'),
      this.key(`org:${orgId}`),
      this.key(`entry:${id}`),
      orgId,
      id,
    );
    return removed === 1;
  }

  /** Whether the entry still waits. */
  async waits(id: string): Promise<boolean> {
    return (await this.options.redis.exists(this.key(`entry:${id}`))) === 1;
  }

  /** For the BullMQ job `jobId`, the next entry whose turn it is (`perOrg`: ORG_MAX_CONCURRENT_RUNS). */
  async take(perOrg: number, jobId: string): Promise<Taken> {
    const answer = (await this.options.redis.eval(
      TAKE,
      1,
      this.key('turns'),
      perOrg,
      jobId,
      this.options.prefix,
      this.options.jobPrefix,
    )) as string[];
    if (answer[0] === 'taken') return { id: answer[1], payload: answer[2] };
    return answer[0] === 'empty' ? 'empty' : 'busy';
  }

  /** The job `jobId`'s work for `orgId` is over: the organization may start another. */
  async done(orgId: string, jobId: string): Promise<void> {
    await this.options.redis.srem(this.key(`going:${orgId}`), jobId);
  }

  /** Every waiting entry's id, in turn order: an id's index is how many start before it. */
  async order(): Promise<string[]> {
    const flat = (await this.options.redis.eval(SNAPSHOT, 1, this.key('turns'), this.options.prefix)) as (
      | string
      | number
    )[];
    const byOrg = new Map<string, string[]>();
    const going = new Map<string, number>();
    const rotation: string[] = [];
    for (let i = 0; i < flat.length; ) {
      const org = String(flat[i]);
      const count = Number(flat[i + 2]);
      going.set(org, Number(flat[i + 1]));
      byOrg.set(org, flat.slice(i + 3, i + 3 + count).map(String));
      rotation.push(org);
      i += 3 + count;
    }
    return turnOrder({ byOrg, rotation, running: (org) => going.get(org) ?? 0 });
  }
}
