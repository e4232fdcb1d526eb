const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** '3 tests', '1 test'. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A date as people read it in lists: '12 Mar 2026, 14:05' in the user's time zone; '' when unreadable. */
export function fullTime(iso: string | null | undefined, locale = 'en-GB'): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/**
 * How long ago, for lists: 'just now', '5 min ago', '3 h ago', 'yesterday', '4 days ago', then the
 * date ('12 Mar 2026'). A time in the future (a clock ahead of ours) reads 'just now'.
 */
export function relativeTime(
  iso: string | null | undefined,
  now: number = Date.now(),
  locale = 'en-GB',
): string {
  if (!iso) return '';
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '';
  const ago = now - time;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 2 * DAY) return 'yesterday';
  if (ago < 7 * DAY) return `${Math.floor(ago / DAY)} days ago`;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(time));
}

/** 'https://shop.example.com/' → 'shop.example.com'; 'https://example.com/app/' → 'example.com/app'. */
export function siteLabel(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.replace(/\/$/, '');
    return `${parsed.host}${path}`;
  } catch {
    return url;
  }
}
