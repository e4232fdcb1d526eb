import type { InvitationCreated } from '@argus/protocol';

/**
 * The link to hand over: the server's whole URL when it knows its public address, else its path on
 * the origin the screens are served from (the same server).
 */
export function invitationLink(created: Pick<InvitationCreated, 'url' | 'path'>, origin: string): string {
  if (created.url && /^https?:\/\//.test(created.url)) return created.url;
  return new URL(created.path, origin).toString();
}
