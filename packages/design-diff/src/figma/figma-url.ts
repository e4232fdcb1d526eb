/** A Figma file link, read: the file's key and, when the link names one, the node (`1:2`). */
export interface FigmaFileRef {
  fileKey: string;
  /** The node id in the API's form (`1:2`); absent when the link names no node. */
  nodeId?: string;
}

const FIGMA_HOSTS = new Set(['figma.com', 'www.figma.com']);
/** `/file/<key>`, `/design/<key>` and `/proto/<key>` (a branch link `/design/<key>/branch/<branchKey>` names the branch). */
const FILE_KINDS = new Set(['file', 'design', 'proto']);
const KEY = /^[A-Za-z0-9]{10,128}$/;
/** A node id: `1:2`, `1-2`, or an instance's path `I1:2;3:4`. */
const NODE_ID = /^I?\d+[:-]\d+(?:;I?\d+[:-]\d+)*$/;

export class FigmaUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FigmaUrlError';
  }
}

function shown(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * Reads `https://www.figma.com/file/<key>/<name>?node-id=1-2` and its `/design/` and `/proto/` forms.
 * Anything else (another site, a Figma page that is not a file) throws a `FigmaUrlError` saying so.
 */
export function parseFigmaUrl(input: string): FigmaFileRef {
  const text = input.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FigmaUrlError(`This is not a Figma file link: "${shown(text)}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new FigmaUrlError(`This is not a Figma file link: ${shown(text)}`);
  }
  if (!FIGMA_HOSTS.has(url.hostname.toLowerCase())) {
    throw new FigmaUrlError(
      `This is not a Figma file link: ${shown(text)} (expected https://www.figma.com/file/… or /design/…)`,
    );
  }
  const parts = url.pathname.split('/').filter(Boolean);
  const [kind, key] = parts;
  if (!kind || !FILE_KINDS.has(kind) || !key) {
    throw new FigmaUrlError(
      `This is not a Figma file link: ${shown(text)} (a file link looks like https://www.figma.com/design/<file key>/<name>)`,
    );
  }
  let fileKey = key;
  // A branch of a file: /design/<key>/branch/<branchKey>/<name>; the API reads the branch by its own key.
  if (parts[2] === 'branch' && parts[3]) fileKey = parts[3];
  if (!KEY.test(fileKey)) {
    throw new FigmaUrlError(`This is not a Figma file link: "${shown(fileKey)}" is not a Figma file key`);
  }
  const rawNode = url.searchParams.get('node-id');
  if (rawNode === null || rawNode.trim() === '') return { fileKey };
  const node = rawNode.trim();
  if (!NODE_ID.test(node)) {
    throw new FigmaUrlError(`The Figma link's node-id "${shown(node)}" is not a node id (like 1-2 or 1:2)`);
  }
  return { fileKey, nodeId: toApiNodeId(node) };
}

/** `1-2` (the form links use) to `1:2` (the form the API uses); `1:2` stays as it is. */
export function toApiNodeId(id: string): string {
  return id.replace(/(\d+)-(\d+)/g, '$1:$2');
}

/** `1:2` to `1-2`, the form a link's `node-id` takes. */
export function toUrlNodeId(id: string): string {
  return id.replace(/(\d+):(\d+)/g, '$1-$2');
}
