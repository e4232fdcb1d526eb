import type { StorageUsage } from '@argus/protocol';

/**
 * What the Storage panel says (GET /api/settings/storage): sizes people read at a glance, the share of
 * the quota used, and how long history is kept (HISTORY_RETENTION_DAYS; docs/HISTORY.md#retention).
 */

/** 0 → '0 bytes', 1536 → '1.5 KiB', 1073741824 → '1 GiB' (binary units, as the server's quota messages). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${value} ${value === 1 ? 'byte' : 'bytes'}`;
  return `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** The share of the quota used, 0 to 100 (whole percent; a sliver shows as 1), or null without a quota. */
export function quotaPercent(usage: Pick<StorageUsage, 'total_bytes' | 'quota_bytes'>): number | null {
  if (usage.quota_bytes === null || usage.quota_bytes <= 0) return null;
  const percent = (usage.total_bytes / usage.quota_bytes) * 100;
  if (percent > 0 && percent < 1) return 1;
  return Math.min(100, Math.round(percent));
}

/** '43% used', 'Under 1% used' for a sliver (the bar still shows one), or null without a quota. */
export function quotaText(usage: Pick<StorageUsage, 'total_bytes' | 'quota_bytes'>): string | null {
  const percent = quotaPercent(usage);
  if (percent === null || usage.quota_bytes === null) return null;
  if (percent === 1 && usage.total_bytes < usage.quota_bytes / 100) return 'Under 1% used';
  return `${percent}% used`;
}

/** 'History is kept for 30 days' / 'for 1 day' / 'forever' (0 keeps everything). */
export function retentionText(days: number): string {
  if (days === 0) return 'History is kept forever';
  return `History is kept for ${days} ${days === 1 ? 'day' : 'days'}`;
}

/** What the last clean-up removed, in one sentence. */
export function sweepText(sweep: NonNullable<StorageUsage['last_sweep']>): string {
  const parts = [
    `${sweep.runs_deleted} ${sweep.runs_deleted === 1 ? 'run' : 'runs'}`,
    `${sweep.comparisons_deleted} design ${sweep.comparisons_deleted === 1 ? 'comparison' : 'comparisons'}`,
  ];
  if (sweep.runs_deleted === 0 && sweep.comparisons_deleted === 0 && sweep.bytes_freed === 0)
    return 'Nothing was old enough to remove.';
  return `Removed ${parts.join(' and ')}, freeing ${formatBytes(sweep.bytes_freed)}.`;
}

/** An instant in the reader's own time zone, e.g. '26 Nov 2026, 21:05'. */
export function formatInstant(iso: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
