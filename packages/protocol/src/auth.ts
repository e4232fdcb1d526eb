import { z } from 'zod';

/** docs/PRODUCT.md#registration: password minimum length. */
export const PASSWORD_MIN_LENGTH = 8;
/** Upper bound so a hash request cannot be used to burn CPU. */
export const PASSWORD_MAX_LENGTH = 128;

export interface PasswordChecks {
  length: boolean;
  uppercase: boolean;
  lowercase: boolean;
  digit: boolean;
}

/** The four password rules (docs/PRODUCT.md#registration), each checked on its own (the register screen shows them as a checklist). */
export function passwordChecks(password: string): PasswordChecks {
  return {
    length: password.length >= PASSWORD_MIN_LENGTH,
    uppercase: /[A-Z]/.test(password),
    lowercase: /[a-z]/.test(password),
    digit: /[0-9]/.test(password),
  };
}

export type PasswordStrengthLabel = 'Enter password' | 'Weak' | 'Good' | 'Strong';

/** docs/PRODUCT.md#registration: 0 rules 'Enter password', 1-2 'Weak', 3 'Good', 4 'Strong'. */
export function passwordStrength(password: string): { score: number; label: PasswordStrengthLabel } {
  const score = Object.values(passwordChecks(password)).filter(Boolean).length;
  const label: PasswordStrengthLabel =
    score === 0 ? 'Enter password' : score <= 2 ? 'Weak' : score === 3 ? 'Good' : 'Strong';
  return { score, label };
}

export const PasswordSchema = z
  .string()
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .superRefine((value, ctx) => {
    const checks = passwordChecks(value);
    if (!checks.length)
      ctx.addIssue({
        code: 'custom',
        message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
      });
    if (!checks.uppercase)
      ctx.addIssue({ code: 'custom', message: 'Password must contain an uppercase letter' });
    if (!checks.lowercase)
      ctx.addIssue({ code: 'custom', message: 'Password must contain a lowercase letter' });
    if (!checks.digit) ctx.addIssue({ code: 'custom', message: 'Password must contain a digit' });
  });

export const UsernameSchema = z
  .string()
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, digits, dots, dashes and underscores');

export const EmailSchema = z.string().trim().max(254).pipe(z.email('Enter a valid email address'));

export const UserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  full_name: z.string().nullable(),
  created_at: z.string().optional(),
});
export type User = z.infer<typeof UserSchema>;

export const RegisterRequestSchema = z
  .object({
    username: UsernameSchema,
    email: EmailSchema,
    password: PasswordSchema,
    confirmPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(),
    full_name: z.string().trim().max(200).optional(),
  })
  .refine((body) => body.confirmPassword === undefined || body.confirmPassword === body.password, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

/** Form-encoded login: `username` may hold a username or an email address. */
export const LoginRequestSchema = z.object({
  username: z.string().trim().min(1, 'Field required').max(254),
  password: z.string().min(1, 'Field required').max(PASSWORD_MAX_LENGTH),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const LoginResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number(),
  user: UserSchema,
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const ChangePasswordRequestSchema = z
  .object({
    current_password: z.string().min(1, 'Field required').max(PASSWORD_MAX_LENGTH),
    new_password: PasswordSchema,
    confirm_password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  })
  .refine((body) => body.confirm_password === undefined || body.confirm_password === body.new_password, {
    message: 'Passwords do not match',
    path: ['confirm_password'],
  });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

export const MessageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

/**
 * `POST /api/auth/change-password`: the change revokes every older token, so the answer carries a
 * fresh one (and the user) that the client must keep.
 */
export const ChangePasswordResponseSchema = LoginResponseSchema.extend({ message: z.string() });
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponseSchema>;

/** `POST /api/auth/register` answers 201 with a message and the new user (no token: the user signs in). */
export const RegisterResponseSchema = z.object({ message: z.string(), user: UserSchema });
export type RegisterResponse = z.infer<typeof RegisterResponseSchema>;

/** GET /api/auth/sso: whether the login page offers single sign-on, and the provider's name (docs/SSO.md). */
export const SsoStatusSchema = z.object({ enabled: z.boolean(), name: z.string().nullable() });
export type SsoStatus = z.infer<typeof SsoStatusSchema>;

/** GET /api/auth/sso/callback: the provider's answer (RFC 6749 §4.1.2): a code, or an error. */
export const SsoCallbackQuerySchema = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});
