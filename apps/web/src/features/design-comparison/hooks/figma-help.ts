/** What the access modal shows beyond the spec's fixed text: the service account, when the server names it. */
export interface FigmaHelp {
  serviceAccountEmail: string | null;
}

/** The help a server message carries (figma_sharing_instructions, figma_permission_error): a blank email names no account. */
export function readHelp(data: { [key: string]: unknown }): FigmaHelp {
  const email = data.service_account_email;
  return { serviceAccountEmail: typeof email === 'string' && email.trim() ? email.trim() : null };
}
