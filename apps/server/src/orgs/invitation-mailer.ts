import { createTransport } from 'nodemailer';
import type { Config } from '../config';
import type { InvitationMailer } from './invitation-service';

/**
 * Invitations by email when the operator set SMTP_URL (`smtp://user:pass@host:587`, `smtps://…`),
 * through nodemailer; none otherwise: the link is shown to copy, which needs no mail server.
 */
export function invitationMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): InvitationMailer | null {
  if (!config.smtpUrl) return null;
  const transport = createTransport(config.smtpUrl);
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from: config.mailFrom, to, subject, text });
    },
  };
}
