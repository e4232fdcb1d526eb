import { createHmac } from 'node:crypto';
import type { WorkTarget } from '../automation/project-target';

/**
 * What a case's trace must not hold besides the variables' secrets (docs/DIAGNOSTICS.md): the project
 * login's password (each account's, with a pool) even when it is kept as a plain variable, and the TOTP
 * codes a sign-in may have typed while the case ran (a session renewed mid-case signs in again). The
 * engine replaces each value by `{{NAME}}` (RunTestOptions.extraSecrets).
 */

/** Most codes named for one attempt: one per period of a case that ran for hours would be absurd. */
const MAX_CODES = 240;

/** `name`, or one of its numbered accounts' (`PASSWORD_2`: packages/engine/src/sign-in-accounts.ts). */
const isAccountOf = (name: string, base: string) =>
  name === base || (name.startsWith(`${base}_`) && /^\d+$/.test(name.slice(base.length + 1)));

/**
 * The login's secrets for one attempt, made when the engine asks (as the attempt ends): its passwords,
 * its TOTP secrets and every code they gave from a period before `loginSecrets` was called (the attempt's
 * start) to a period after the ask. Undefined without a credentials login.
 */
export function loginSecrets(
  target: Pick<WorkTarget, 'plan' | 'variables'> | null,
  now: () => number = Date.now,
): (() => Record<string, string>) | undefined {
  const plan = target?.plan;
  if (!target || plan?.mode !== 'credentials') return undefined;
  const since = now();
  return () => {
    const secrets: Record<string, string> = {};
    for (const [name, { value }] of target.variables.values) {
      if (!value) continue;
      if (isAccountOf(name, plan.password)) secrets[name] = value;
      if (plan.totp && isAccountOf(name, plan.totp)) {
        secrets[name] = value;
        totpCodes(value, since, now()).forEach((code, i) => {
          secrets[`${name}_CODE_${i + 1}`] = code;
        });
      }
    }
    return secrets;
  };
}

interface TotpKey {
  key: Buffer;
  algorithm: 'sha1' | 'sha256' | 'sha512';
  digits: number;
  period: number;
}

/** A TOTP secret as the sign-in reads it: base32, or an otpauth:// URI; null when it is neither. */
function totpKey(secret: string): TotpKey | null {
  let base32 = secret;
  let algorithm: TotpKey['algorithm'] = 'sha1';
  let digits = 6;
  let period = 30;
  if (secret.startsWith('otpauth://')) {
    const params = new URL(secret).searchParams;
    base32 = params.get('secret') ?? '';
    const named = (params.get('algorithm') ?? 'SHA1').toLowerCase();
    if (named === 'sha256' || named === 'sha512') algorithm = named;
    digits = Number(params.get('digits') ?? 6) || 6;
    period = Number(params.get('period') ?? 30) || 30;
  }
  const key = base32Bytes(base32.replace(/\s+/g, '').replace(/=+$/, '').toUpperCase());
  return key && key.length > 0 ? { key, algorithm, digits, period } : null;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Bytes(text: string): Buffer | null {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text) {
    const index = BASE32.indexOf(char);
    if (index < 0) return null;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226's code for one counter. */
function hotp({ key, algorithm, digits }: TotpKey, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const number = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(number % 10 ** digits).padStart(digits, '0');
}

/** The codes of every period from the one before `from` to the one after `to` (RFC 6238). */
export function totpCodes(secret: string, from: number, to: number): string[] {
  let parsed: TotpKey | null;
  try {
    parsed = totpKey(secret);
  } catch {
    return [];
  }
  if (!parsed) return [];
  const step = (ms: number) => Math.floor(ms / 1000 / (parsed as TotpKey).period);
  const first = Math.max(0, step(from) - 1);
  const last = Math.min(step(to) + 1, first + MAX_CODES - 1);
  const codes: string[] = [];
  for (let counter = first; counter <= last; counter++) codes.push(hotp(parsed, counter));
  return codes;
}
