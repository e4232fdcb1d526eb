import { type AsyncZippable, type Unzipped, unzip, zip } from 'fflate';
import { isCredentialHeader, REDACTED, type SecretSpelling, spellingPattern } from './secrets';

/**
 * Takes every secret out of a Playwright trace before it is kept (docs/DIAGNOSTICS.md): in every file
 * of the zip (call parameters and logs, DOM snapshots, network entries, request and response bodies)
 * each spelling of each secret becomes `{{NAME}}`; in `trace.network` the values of credential headers
 * and cookies read `[redacted]`; and in the DOM snapshots a field that held a secret is drawn masked
 * (`-webkit-text-security`), as the session masks it on the page. Unzipping and zipping run off the
 * event loop (fflate's workers).
 */
export async function redactTrace(zipped: Uint8Array, spellings: SecretSpelling[]): Promise<Buffer> {
  const files = await new Promise<Unzipped>((resolve, reject) =>
    unzip(zipped, (error, data) => (error ? reject(error) : resolve(data))),
  );
  const names = [...new Set(spellings.map((s) => s.name))];
  const out: AsyncZippable = {};
  let changed = false;
  for (const [path, data] of Object.entries(files)) {
    const read = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    let bytes = replaceSpellings(read, spellings);
    if (path === 'trace.network') bytes = rewriteLines(bytes, redactNetworkEntry);
    else if (path.endsWith('.trace') && names.length > 0) bytes = rewriteLines(bytes, maskSnapshot(names));
    if (bytes !== read) changed = true;
    // Pictures are compressed already: stored as they are, the rest deflated.
    out[path] = [bytes, { level: isCompressedImage(bytes) ? 0 : 6 }];
  }
  // Nothing to take out (most traces: no secret typed, no credential sent): Playwright's zip is kept as
  // it is rather than deflated again, the costliest part of keeping a trace (docs/PERFORMANCE.md).
  if (!changed) return Buffer.isBuffer(zipped) ? zipped : Buffer.from(zipped);
  const rezipped = await new Promise<Uint8Array>((resolve, reject) =>
    zip(out, (error, data) => (error ? reject(error) : resolve(data))),
  );
  return Buffer.from(rezipped.buffer, rezipped.byteOffset, rezipped.byteLength);
}

/**
 * Every spelling replaced in raw bytes: read as latin1 (one character per byte, so a binary file
 * comes back byte for byte) against the spellings' UTF-8 bytes read the same way.
 */
function replaceSpellings(bytes: Buffer, spellings: SecretSpelling[]): Buffer {
  let text: string | null = null;
  for (const { name, form } of spellings) {
    const needle = Buffer.from(form, 'utf8');
    if (text === null ? bytes.indexOf(needle) < 0 : !text.includes(needle.toString('latin1'))) continue;
    text ??= bytes.toString('latin1');
    const latin = needle.toString('latin1');
    const pattern = spellingPattern(form);
    text = pattern ? text.replace(pattern, `{{${name}}}`) : text.split(latin).join(`{{${name}}}`);
  }
  return text === null ? bytes : Buffer.from(text, 'latin1');
}

/** A JSONL file with some lines rewritten: `rewrite` answers a changed event, or null to keep the line. */
function rewriteLines(bytes: Buffer, rewrite: (event: Record<string, unknown>) => unknown): Buffer {
  let changed = false;
  const lines = bytes
    .toString('utf8')
    .split('\n')
    .map((line) => {
      if (!line.trim()) return line;
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(line);
      } catch {
        return line;
      }
      const next = rewrite(event);
      if (next === null) return line;
      changed = true;
      return JSON.stringify(next);
    });
  return changed ? Buffer.from(lines.join('\n'), 'utf8') : bytes;
}

interface HarNameValue {
  name: string;
  value: string;
}

/** A `resource-snapshot` (a HAR entry) with its credential headers and its cookies redacted. */
function redactNetworkEntry(event: Record<string, unknown>): unknown {
  const snapshot = event.snapshot as
    | { request?: Record<string, unknown>; response?: Record<string, unknown> }
    | undefined;
  if (event.type !== 'resource-snapshot' || !snapshot) return null;
  let changed = false;
  for (const part of [snapshot.request, snapshot.response]) {
    if (!part) continue;
    for (const header of (part.headers ?? []) as HarNameValue[]) {
      if (isCredentialHeader(header.name) && header.value !== REDACTED) {
        header.value = REDACTED;
        changed = true;
      }
    }
    for (const cookie of (part.cookies ?? []) as HarNameValue[]) {
      if (cookie.value !== REDACTED) {
        cookie.value = REDACTED;
        changed = true;
      }
    }
  }
  return changed ? event : null;
}

/** Playwright's snapshot attribute holding a field's value. */
const VALUE_ATTRIBUTE = '__playwright_value_';
const MASK = '-webkit-text-security: disc !important';

/**
 * A `frame-snapshot` whose fields holding a (replaced) secret are drawn as discs. A snapshot node is
 * `[TAG, attributes, ...children]`, or a reference to a node of an earlier snapshot (masked there).
 */
function maskSnapshot(names: string[]): (event: Record<string, unknown>) => unknown {
  const placeholders = names.map((name) => `{{${name}}}`);
  return (event) => {
    if (event.type !== 'frame-snapshot') return null;
    const html = (event.snapshot as { html?: unknown } | undefined)?.html;
    return maskNode(html, placeholders) ? event : null;
  };
}

function maskNode(node: unknown, placeholders: string[]): boolean {
  if (!Array.isArray(node) || typeof node[0] !== 'string') return false;
  let changed = false;
  const attrs = node[1];
  if ((node[0] === 'INPUT' || node[0] === 'TEXTAREA') && attrs && typeof attrs === 'object') {
    const record = attrs as Record<string, unknown>;
    const value = record[VALUE_ATTRIBUTE];
    const style = typeof record.style === 'string' ? record.style : '';
    if (typeof value === 'string' && placeholders.some((p) => value.includes(p)) && !style.includes(MASK)) {
      record.style = style ? `${style}; ${MASK}` : MASK;
      changed = true;
    }
  }
  for (let i = 2; i < node.length; i++) changed = maskNode(node[i], placeholders) || changed;
  return changed;
}

function isCompressedImage(bytes: Buffer): boolean {
  return (
    (bytes[0] === 0xff && bytes[1] === 0xd8) || // JPEG
    (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) // PNG
  );
}
