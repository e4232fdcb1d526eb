import { parseFigmaUrl } from './figma-url';

/** The data of `figma_sharing_instructions` (ws.ts carries it as a JSON object). */
export interface FigmaSharingInstructions {
  title: string;
  message: string;
  /** The file asked about, when the request named one. */
  figma_url: string | null;
  file_key: string | null;
  error_context: string;
  /** The account whose token reads files ("the service account"); null when not configured. */
  service_account_email: string | null;
  options: { title: string; steps: string[] }[];
  /** One text with everything, for clients that show a single block. */
  instructions: string;
}

/**
 * What `get_figma_help` answers: the 'Figma File Access Required' modal's two ways to share a file
 * (docs/PRODUCT.md#figma-access): make it viewable by anyone with the link, or invite the service account with 'Can view'.
 */
export function figmaSharingInstructions(
  input: { figma_url?: string | null; error_context?: string; service_account_email?: string | null } = {},
): FigmaSharingInstructions {
  const email = input.service_account_email?.trim() || null;
  let fileKey: string | null = null;
  if (input.figma_url) {
    try {
      fileKey = parseFigmaUrl(input.figma_url).fileKey;
    } catch {
      fileKey = null;
    }
  }
  const invitee = email
    ? `the service account (${email})`
    : "the service account (the Figma account of the server's token)";
  const options = [
    {
      title: 'Option 1: make the file public',
      steps: [
        'Open the file in Figma and click Share (top right).',
        "Under 'General access', choose 'Anyone with the link can view'.",
        'Start the comparison again.',
      ],
    },
    {
      title: 'Option 2: invite the service account',
      steps: [
        'Open the file in Figma and click Share (top right).',
        email ? `Enter ${email}.` : "Enter the service account's email (your administrator knows it).",
        "Choose 'Can view' and click Invite.",
        'Start the comparison again.',
      ],
    },
  ];
  const message = `Argus cannot open this Figma file. Make it viewable by anyone with the link, or invite ${invitee} with 'Can view'.`;
  const instructions = [
    message,
    ...options.map((o) => `${o.title}:\n${o.steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}`),
  ].join('\n\n');
  return {
    title: 'Figma File Access Required',
    message,
    figma_url: input.figma_url || null,
    file_key: fileKey,
    error_context: input.error_context ?? 'general',
    service_account_email: email,
    options,
    instructions,
  };
}
