import { TOTP } from 'otpauth';

/**
 * TOTP codes (RFC 6238) from a secret as a project stores it: base32, as sites show it for
 * authenticator apps, or an otpauth:// URI (its digits, period and algorithm). One reading of the
 * secret for the sign-in that types a code and for the trace redaction that must remove every code a
 * case may have typed.
 */

/** The secret as otpauth reads it; throws on one that is neither base32 nor an otpauth:// URI. */
function totpOf(secret: string): TOTP {
  if (secret.startsWith('otpauth://')) {
    const parsed = new URL(secret);
    return new TOTP({
      secret: parsed.searchParams.get('secret') ?? '',
      digits: Number(parsed.searchParams.get('digits') ?? 6),
      period: Number(parsed.searchParams.get('period') ?? 30),
      algorithm: parsed.searchParams.get('algorithm') ?? 'SHA1',
    });
  }
  return new TOTP({ secret: secret.replace(/\s+/g, '').toUpperCase() });
}

/** The code now (or at `timestamp`, ms). Throws on a secret that cannot be read. */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return totpOf(secret).generate({ timestamp });
}

/** Most codes named for one span: one per period of a case that ran for hours would be absurd. */
const MAX_CODES = 240;

/**
 * Every code of the periods from the one before `from` to the one after `to` (ms), at most 240; none
 * for a secret that cannot be read.
 */
export function totpCodesBetween(secret: string, from: number, to: number): string[] {
  let totp: TOTP;
  try {
    totp = totpOf(secret);
    totp.generate();
  } catch {
    return [];
  }
  const periodMs = totp.period * 1000;
  const first = Math.max(0, Math.floor(from / periodMs) - 1);
  const last = Math.min(Math.floor(to / periodMs) + 1, first + MAX_CODES - 1);
  const codes: string[] = [];
  for (let counter = first; counter <= last; counter++)
    codes.push(totp.generate({ timestamp: counter * periodMs }));
  return codes;
}
