import { ModelError } from '@argus/ai';
import type { UserSettingsRow } from '@argus/db';
import { type Secrets, SecretUnreadableError } from '../security/secrets';
import { isModelProvider, PROVIDER_NAMES } from './providers';

/**
 * A user's stored secrets (API key, Figma token): encrypted bound to their user and field, and an API
 * key also to the provider and base URL origin it was saved for, so it is only ever sent there.
 */
export class UserSecrets {
  constructor(private readonly secrets: Secrets) {}

  /**
   * The user's stored API key for a call to `provider` at `baseUrl`: a key is bound to the provider
   * and base URL origin it was saved with (AES-GCM associated data), so whoever changes either in
   * Settings cannot have it sent to a host of their own; they must give the key again.
   */
  revealApiKey(
    row: UserSettingsRow | undefined,
    userId: string,
    provider: string,
    baseUrl: string | null | undefined,
  ): string | undefined {
    const stored = row?.ai_api_key_enc;
    if (!stored) return undefined;
    const savedFor = this.secrets.bindingOf(stored) ?? keyBinding(row.ai_provider, row.ai_base_url);
    if (savedFor !== keyBinding(provider, baseUrl))
      throw new ModelError(
        'auth',
        `Your saved API key was for ${describeBinding(savedFor)}; it is only ever sent there, and the provider or base URL has changed since. Enter the API key again in Settings.`,
      );
    try {
      return this.secrets.decrypt(stored, `ai_api_key:${userId}`);
    } catch (error) {
      if (error instanceof SecretUnreadableError) throw new ModelError('auth', error.message);
      throw error;
    }
  }

  /** An API key to store, bound to the provider and base URL it is for. */
  hideApiKey(
    key: string,
    userId: string,
    provider: string | null | undefined,
    baseUrl: string | null | undefined,
  ): string {
    return this.secrets.encrypt(key.trim(), `ai_api_key:${userId}`, keyBinding(provider, baseUrl));
  }

  /**
   * A key saved before keys were bound to where they go, when the provider or base URL is about to
   * change: the key re-encrypted bound to where it was saved for, so the new provider or base URL does
   * not get it (revealApiKey asks for it again). Undefined when there is nothing to rebind.
   */
  rebindUnboundKey(
    row: UserSettingsRow | undefined,
    userId: string,
    provider: string | null | undefined,
    baseUrl: string | null | undefined,
  ): string | undefined {
    if (
      !row?.ai_api_key_enc ||
      this.secrets.bindingOf(row.ai_api_key_enc) !== undefined ||
      keyBinding(provider, baseUrl) === keyBinding(row.ai_provider, row.ai_base_url)
    )
      return undefined;
    try {
      const key = this.secrets.decrypt(row.ai_api_key_enc, `ai_api_key:${userId}`);
      return this.secrets.encrypt(key, `ai_api_key:${userId}`, keyBinding(row.ai_provider, row.ai_base_url));
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      return undefined;
    }
  }

  hide(secret: string, field: string, userId: string): string {
    return this.secrets.encrypt(secret.trim(), `${field}:${userId}`);
  }

  reveal(stored: string | null | undefined, field: string, userId: string): string | undefined {
    return stored ? this.secrets.decrypt(stored, `${field}:${userId}`) : undefined;
  }
}

/** Where a stored API key may be sent: its provider and the origin of its base URL ('default': the provider's own). */
function keyBinding(provider: string | null | undefined, baseUrl: string | null | undefined): string {
  let origin = 'default';
  if (baseUrl) {
    try {
      origin = new URL(baseUrl).origin;
    } catch {
      origin = baseUrl;
    }
  }
  return `${provider ?? 'none'} ${origin}`;
}

function describeBinding(binding: string): string {
  const [provider = '', origin = 'default'] = binding.split(' ');
  const name = isModelProvider(provider) ? PROVIDER_NAMES[provider].replace(/^An /, 'an ') : provider;
  return origin === 'default' ? `${name}'s own API` : `${name} at ${origin}`;
}
