import { describe, expect, it } from 'vitest';
import {
  isTimeZone,
  presetOf,
  SCHEDULE_PRESETS,
  ScheduleInputSchema,
  SchedulePresetSchema,
  WebhookInputSchema,
} from './schedules';

describe('schedule shapes', () => {
  // What each preset's expression means (nightly due at 02:00 in its zone, weekly on Mondays at 06:00)
  // is checked where the server turns a preset into a schedule: apps/server/src/routes/schedules.api.test.ts.
  it('reads each preset back from its cron expression whatever the spacing, and custom ones as null', () => {
    expect([...SchedulePresetSchema.options].sort()).toEqual(Object.keys(SCHEDULE_PRESETS).sort());
    for (const [preset, cron] of Object.entries(SCHEDULE_PRESETS))
      expect(presetOf(` ${cron.replaceAll(' ', '  ')} `)).toBe(preset);
    expect(presetOf('0  2 * * *')).toBe('nightly');
    expect(presetOf('*/5 * * * *')).toBeNull();
  });

  it('knows IANA time zones', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('takes a preset or a cron expression, UTC unless a zone is given', () => {
    expect(ScheduleInputSchema.parse({ suite_id: 's', preset: 'hourly' })).toMatchObject({
      preset: 'hourly',
      timezone: 'UTC',
      enabled: true,
    });
    expect(
      ScheduleInputSchema.parse({ suite_id: 's', cron: ' 0 2 * * 1-5 ', timezone: 'Asia/Tokyo' }),
    ).toMatchObject({ cron: '0 2 * * 1-5', timezone: 'Asia/Tokyo' });
    expect(ScheduleInputSchema.safeParse({ suite_id: 's' }).success).toBe(false);
    expect(ScheduleInputSchema.safeParse({ suite_id: 's', cron: '* * *' }).success).toBe(false);
    expect(ScheduleInputSchema.safeParse({ suite_id: 's', preset: 'daily' }).success).toBe(false);
    expect(
      ScheduleInputSchema.safeParse({ suite_id: 's', preset: 'hourly', timezone: 'Nowhere' }).success,
    ).toBe(false);
  });

  it('takes webhooks with a format and events, failure and recovery by default', () => {
    expect(WebhookInputSchema.parse({ name: 'Ops', url: 'https://hooks.example/x' })).toMatchObject({
      format: 'generic',
      events: ['failure', 'recovery'],
      enabled: true,
    });
    expect(
      WebhookInputSchema.safeParse({
        name: 'Ops',
        url: 'https://x.example',
        format: 'teams',
        events: ['always'],
      }).success,
    ).toBe(true);
    for (const bad of [
      { name: 'Ops', url: 'javascript:alert(1)' },
      { name: 'Ops', url: 'https://x.example', format: 'discord' },
      { name: 'Ops', url: 'https://x.example', events: [] },
      { name: '', url: 'https://x.example' },
    ])
      expect(WebhookInputSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
