/**
 * Invitations by email: with SMTP_URL set, the link is also mailed, through a real SMTP server
 * started here on 127.0.0.1 (smtp-server) that keeps what it receives: one message, from MAIL_FROM to
 * the invited address, naming the organization and the role, with the same one-time link the
 * answer gives, which then joins.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

interface Received {
  from: string;
  to: string[];
  text: string;
}

describe('invitations by email', () => {
  let smtp: SMTPServer;
  let server: InProcessServer;
  const received: Received[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let text = '';
        stream.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            text,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    server = await startInProcess({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Argus <argus@acme.example>',
      PUBLIC_URL: 'https://argus.acme.example',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });

  it('mails the one-time link to the invited address, and the mailed link joins', async () => {
    const api = client(server);
    const olga = await api.signUp('olga');
    const org = await api.call('POST', '/api/organizations', { token: olga.token, json: { name: 'Acme' } });
    const invited = await api.call('POST', '/api/organization/invitations', {
      token: olga.token,
      headers: { 'x-argus-organization': org.data.id },
      json: { email: 'Newcomer@Example.com', role: 'runner' },
    });
    expect(invited.status).toBe(201);
    expect(invited.data).toMatchObject({ emailed: true, email: 'newcomer@example.com' });
    expect(invited.data.url).toBe(`https://argus.acme.example${invited.data.path}`);
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect([mail.from, mail.to]).toEqual(['argus@acme.example', ['newcomer@example.com']]);
    expect(mail.text).toContain('Subject: olga invited you to Acme on Argus');
    // The body may be wrapped (quoted-printable); unwrapped, it holds the whole link.
    const body = mail.text.replace(/=\r?\n/g, '');
    expect(body).toContain('as runner');
    expect(body).toContain(invited.data.url);
    const token = invited.data.path.split('/').pop();
    const newcomer = await api.signUp('newcomer');
    const joined = await api.call('POST', `/api/invitations/${token}/accept`, { token: newcomer.token });
    expect([joined.status, joined.data.name, joined.data.role]).toEqual([200, 'Acme', 'runner']);
  });
});
