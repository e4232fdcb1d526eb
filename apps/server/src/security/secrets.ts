import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored secret that this server's key cannot open (SECRETS_KEY or DATA_DIR/secrets.key changed). */
export class SecretUnreadableError extends Error {
  constructor() {
    super(
      "A stored secret cannot be decrypted with this server's key (SECRETS_KEY, or DATA_DIR/secrets.key, changed); enter it again in Settings.",
    );
    this.name = 'SecretUnreadableError';
  }
}

/**
 * SECRETS_KEY as 32 bytes: 64 hex digits or the base64 of 32 bytes are taken as they are; any other
 * text is hashed (SHA-256), so a passphrase works too.
 */
export function keyFromText(text: string): Buffer {
  const value = text.trim();
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
    if (bytes.length === 32) return bytes;
  }
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * The key that encrypts users' API keys and tokens: SECRETS_KEY, or 32 random bytes generated on
 * first start into DATA_DIR/secrets.key (mode 0600), as the token secret is. Several servers sharing
 * one database must share SECRETS_KEY.
 */
export async function loadSecretsKey(dataDir: string, configured?: string): Promise<Buffer> {
  if (configured) return keyFromText(configured);
  const path = join(dataDir, 'secrets.key');
  const read = async () => keyFromText((await readFile(path, 'utf8')).trim());
  try {
    return await read();
  } catch {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    // 'wx' fails if another process created it first; then use theirs.
    await writeFile(path, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' }).catch(() => {});
    return read();
  }
}

/**
 * AES-256-GCM over short secrets, stored as base64 `iv.tag.ciphertext`. Each secret is bound to where
 * it belongs (`context`, e.g. 'ai_api_key:<user id>') as associated data, so a ciphertext copied into
 * another user's row or field does not decrypt. A secret may also be bound to a `binding`, a public
 * label stored in clear as a fourth part (e.g. the provider and origin an API key may be sent to):
 * `bindingOf` reads it back, and a ciphertext whose label was altered does not decrypt.
 */
export class Secrets {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The secrets key must be 32 bytes');
  }

  encrypt(plaintext: string, context: string, binding?: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(context, binding));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body];
    if (binding !== undefined) parts.push(Buffer.from(binding, 'utf8'));
    return parts.map((part) => part.toString('base64')).join('.');
  }

  /** The label a secret was bound to when it was encrypted, or undefined for one without. */
  bindingOf(stored: string): string | undefined {
    const label = stored.split('.')[3];
    return label === undefined ? undefined : Buffer.from(label, 'base64').toString('utf8');
  }

  /** The plaintext; throws SecretUnreadableError for a wrong key, a wrong context or a damaged value. */
  decrypt(stored: string, context: string): string {
    try {
      const [iv, tag, body, ...rest] = stored.split('.').map((part) => Buffer.from(part, 'base64'));
      if (!iv || !tag || !body || rest.length > 1 || iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
        throw new Error('format');
      const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(associatedData(context, this.bindingOf(stored)));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadableError();
    }
  }
}

function associatedData(context: string, binding: string | undefined): Buffer {
  return Buffer.from(binding === undefined ? context : `${context}\n${binding}`, 'utf8');
}
