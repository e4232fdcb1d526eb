import { createHash, randomBytes } from 'node:crypto';
import type { ApiTokenRow, OrgOfMember, Repositories, UserRow } from '@argus/db';
import {
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenCreated,
  ApiTokenCreateSchema,
  type TokenScope,
} from '@argus/protocol';
import { AppError } from '../errors';

/** A token's last use is written at most this often (each request would otherwise write a row). */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Tokens per user, revoked ones included: enough for every pipeline, not a table to fill. */
export const MAX_TOKENS_PER_USER = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

/** SHA-256 of the whole token: 32 random bytes need no slow hash, and one index lookup finds it. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** True for a value shaped like an API token (a login JWT never starts with the prefix). */
export function isApiToken(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX);
}

function view(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as TokenScope,
    hint: `${row.hint}…`,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

/**
 * API tokens (docs/CI.md#api-tokens), each acting as a member or a service account of one organization: made in Settings, shown once, stored as a hash,
 * accepted as `Authorization: Bearer` on the REST API with the scope they were given.
 */
export class ApiTokenService {
  constructor(
    private readonly repos: Pick<Repositories, 'apiTokens'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The tokens acting as `userId` in the organization. */
  async list(orgId: string, userId: string): Promise<ApiToken[]> {
    return (await this.repos.apiTokens.list(orgId, userId)).map(view);
  }

  /** A token acting as `userId` (a member, or a service account) in the organization. */
  async create(orgId: string, userId: string, input: ApiTokenCreate): Promise<ApiTokenCreated> {
    const { name, scope, expires_in_days } = ApiTokenCreateSchema.parse(input);
    const existing = await this.repos.apiTokens.list(orgId, userId);
    if (existing.length >= MAX_TOKENS_PER_USER) {
      throw new AppError(
        'BAD_REQUEST',
        `You have ${MAX_TOKENS_PER_USER} API tokens, the most an account may hold: delete revoked ones first`,
      );
    }
    const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await this.repos.apiTokens.create(userId, {
      org_id: orgId,
      name,
      scope,
      token_hash: tokenHash(token),
      hint: token.slice(0, API_TOKEN_PREFIX.length + 4),
      expires_at: expires_in_days ? new Date(this.now().getTime() + expires_in_days * DAY_MS) : null,
    });
    return { ...view(row), token };
  }

  /** Revokes a token of the organization: only one acting as `userId` when given (a member's own). */
  async revoke(orgId: string, id: string, userId?: string): Promise<ApiToken> {
    const row = await this.repos.apiTokens.revoke(orgId, id, userId);
    if (!row) throw new AppError('TOKEN_NOT_FOUND');
    return view(row);
  }

  /**
   * Who the token acts as, in which organization, with which scope; 401 with the reason for an
   * unknown, revoked or expired token. The caller checks the membership (a member removed).
   */
  async authenticate(token: string): Promise<{
    user: UserRow;
    orgId: string;
    /** Their membership of the token's organization, read with the token; none once they left. */
    membership: OrgOfMember | undefined;
    scope: TokenScope;
    tokenId: string;
  }> {
    const found = await this.repos.apiTokens.findByHash(tokenHash(token));
    if (!found) throw new AppError('INVALID_TOKEN');
    const { token: row, user, membership } = found;
    if (row.revoked_at) throw new AppError('INVALID_TOKEN', 'This API token has been revoked');
    const now = this.now();
    if (row.expires_at && row.expires_at.getTime() <= now.getTime()) {
      throw new AppError('INVALID_TOKEN', 'This API token has expired');
    }
    await this.repos.apiTokens.touch(row.id, now, LAST_USED_RESOLUTION_MS);
    return { user, orgId: row.org_id, membership, scope: row.scope as TokenScope, tokenId: row.id };
  }
}
