/**
 * Same-origin everything (the socket too: 'self' covers ws: to this host); no plugins, no framing.
 * Inline styles are allowed because the toast library (goober) writes its rules into a <style> element.
 * Scripts stay 'self' only; zod's probe for `new Function` is refused and it falls back to no JIT.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sent with every answer (app.ts's onSend), and by routes that write their own (the run event stream). */
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'content-security-policy': CONTENT_SECURITY_POLICY,
} as const;
