import { z } from 'zod';

export const HealthResponseSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  database: z.enum(['pglite', 'postgresql']),
  uptime_seconds: z.number(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
