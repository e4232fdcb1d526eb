import { z } from 'zod';

// Schedules of saved suites and a project's webhooks (docs/SCHEDULES.md). Cron expressions are checked
// here for shape only; the server checks them with its cron library (croner) and answers 422 naming
// the field when one does not parse.

/** The presets of the schedule picker, as the cron expressions they stand for (minute hour day month weekday). */
export const SCHEDULE_PRESETS = {
  /** At the start of every hour. */
  hourly: '0 * * * *',
  /** Every day at 02:00 in the schedule's time zone. */
  nightly: '0 2 * * *',
  /** Every Monday at 06:00 in the schedule's time zone. */
  weekly: '0 6 * * 1',
} as const;
export type SchedulePreset = keyof typeof SCHEDULE_PRESETS;
export const SchedulePresetSchema = z.enum(['hourly', 'nightly', 'weekly']);

/** The preset a cron expression is, or null for a custom one. */
export function presetOf(cron: string): SchedulePreset | null {
  const normal = cron.trim().replace(/\s+/g, ' ');
  for (const [name, expression] of Object.entries(SCHEDULE_PRESETS))
    if (expression === normal) return name as SchedulePreset;
  return null;
}

/** Whether `zone` is an IANA time zone this runtime knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const TimeZoneSchema = z
  .string()
  .trim()
  .min(1, 'A time zone is required')
  .max(64)
  .refine(isTimeZone, 'Unknown time zone: use an IANA name such as Europe/Paris or UTC');

/** Five fields (minute hour day-of-month month day-of-week), or six with seconds first. */
export const CronExpressionSchema = z
  .string()
  .trim()
  .min(1, 'A cron expression is required')
  .max(120)
  .refine(
    (value) => [5, 6].includes(value.split(/\s+/).length),
    'A cron expression has five fields: minute hour day month weekday',
  );

/**
 * A schedule as it is created: a preset or a cron expression (the preset wins when both are given),
 * the time zone its times are in, the environment (the project's default when absent).
 */
export const ScheduleInputSchema = z
  .object({
    suite_id: z.string().max(100),
    environment_id: z.string().max(100).nullable().optional(),
    preset: SchedulePresetSchema.nullable().optional(),
    cron: CronExpressionSchema.optional(),
    timezone: TimeZoneSchema.default('UTC'),
    enabled: z.boolean().default(true),
  })
  .superRefine((value, ctx) => {
    if (!value.preset && !value.cron)
      ctx.addIssue({ code: 'custom', path: ['cron'], message: 'Choose a preset or write a cron expression' });
  });
export type ScheduleInput = z.input<typeof ScheduleInputSchema>;

/** A change to a schedule: any of its fields; the suite it runs stays. */
export const ScheduleUpdateSchema = z.object({
  environment_id: z.string().max(100).optional(),
  preset: SchedulePresetSchema.nullable().optional(),
  cron: CronExpressionSchema.optional(),
  timezone: TimeZoneSchema.optional(),
  enabled: z.boolean().optional(),
});
export type ScheduleUpdate = z.input<typeof ScheduleUpdateSchema>;

/**
 * What the last due time of a schedule came to: `started` (its run is `last_run_id`), `waiting` (the
 * user's automation was busy; it is tried again shortly), `skipped` (still busy past the retry window;
 * `last_message` says so), `error` (the run could not start; `last_message` says why).
 */
export const ScheduleOutcomeSchema = z.enum(['started', 'waiting', 'skipped', 'error']);
export type ScheduleOutcome = z.infer<typeof ScheduleOutcomeSchema>;

export const ScheduleSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  suite_id: z.string(),
  suite_name: z.string().nullable(),
  environment_id: z.string(),
  environment_name: z.string().nullable(),
  cron: z.string(),
  preset: SchedulePresetSchema.nullable(),
  timezone: z.string(),
  enabled: z.boolean(),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  last_run_id: z.string().nullable(),
  last_outcome: ScheduleOutcomeSchema.nullable(),
  last_message: z.string().nullable(),
  created_at: z.string(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

/** How a webhook's body is written: Argus's own JSON, a Slack incoming webhook's, a Teams workflow's. */
export const WEBHOOK_FORMATS = ['generic', 'slack', 'teams'] as const;
export const WebhookFormatSchema = z.enum(WEBHOOK_FORMATS);
export type WebhookFormat = z.infer<typeof WebhookFormatSchema>;

/**
 * When a webhook is called: `failure` (a run failed: not completed, or a test failed), `recovery`
 * (a run passed after a failed one of the same suite and environment), `always` (every run).
 */
export const WEBHOOK_EVENTS = ['failure', 'recovery', 'always'] as const;
export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

/** What a delivery reports: the run failed, recovered, passed (sent to `always` hooks), or a test send. */
export const DELIVERY_EVENTS = ['failure', 'recovery', 'success', 'test'] as const;
export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];

const WebhookUrlSchema = z
  .string()
  .trim()
  .min(1, 'A URL is required')
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'The URL must be an http:// or https:// address');

export const WebhookInputSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100),
  url: WebhookUrlSchema,
  format: WebhookFormatSchema.default('generic'),
  events: z
    .array(WebhookEventSchema)
    .min(1, 'Choose when to call it')
    .max(3)
    .default(['failure', 'recovery']),
  enabled: z.boolean().default(true),
});
export type WebhookInput = z.input<typeof WebhookInputSchema>;

export const WebhookUpdateSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100).optional(),
  url: WebhookUrlSchema.optional(),
  format: WebhookFormatSchema.optional(),
  events: z.array(WebhookEventSchema).min(1, 'Choose when to call it').max(3).optional(),
  enabled: z.boolean().optional(),
});
export type WebhookUpdate = z.input<typeof WebhookUpdateSchema>;

export const WebhookSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  url: z.string(),
  format: WebhookFormatSchema,
  events: z.array(WebhookEventSchema),
  enabled: z.boolean(),
  created_at: z.string(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

/** A webhook just created, or its secret just rotated: the signing secret, shown this once. */
export const WebhookWithSecretSchema = WebhookSchema.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof WebhookWithSecretSchema>;

/**
 * A delivery's state: `pending` (waiting for its next attempt), `delivering` (an attempt under way),
 * `delivered` (answered 2xx), `failed` (every attempt failed).
 */
export const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed'] as const;
export const DeliveryStatusSchema = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;

export const WebhookDeliverySchema = z.object({
  id: z.string(),
  webhook_id: z.string(),
  webhook_name: z.string().nullable(),
  test_run_id: z.string().nullable(),
  event: z.string(),
  status: DeliveryStatusSchema,
  attempts: z.number().int(),
  response_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

/** The headers of a signed delivery (docs/SCHEDULES.md#verifying-a-delivery). */
export const WEBHOOK_HEADERS = {
  /** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" with the webhook's secret>` */
  signature: 'x-argus-signature',
  /** Unix seconds when this attempt was signed. */
  timestamp: 'x-argus-timestamp',
  /** The delivery's id: the same across its retries. */
  delivery: 'x-argus-delivery',
  /** failure | recovery | success | test */
  event: 'x-argus-event',
} as const;
