import { z } from 'zod';
import { EmailSchema } from './auth';

/** docs/PRODUCT.md#demo-request: name, email, company required; message optional. */
export const DemoRequestSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200),
  email: EmailSchema,
  company: z.string().trim().min(1, 'Company is required').max(200),
  message: z.string().max(5000).optional().default(''),
});
export type DemoRequest = z.input<typeof DemoRequestSchema>;

export const DemoRequestResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  message: z.string(),
});
export type DemoRequestResponse = z.infer<typeof DemoRequestResponseSchema>;
