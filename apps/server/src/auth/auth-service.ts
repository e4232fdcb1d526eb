import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OrganizationsRepository, OrgOfMember, UserRow, UsersRepository } from '@argus/db';
import type { User } from '@argus/protocol';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../errors';

/** OWASP's argon2id baseline (19 MiB, 2 passes), set explicitly rather than trusting library defaults. */
// 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const ARGON2_OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const ISSUER = 'argus';

/** An argon2id hash of a new password; the server and `npm run user:add` both make them here. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export function toPublicUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    full_name: row.full_name,
    created_at: row.created_at.toISOString(),
  };
}

/** The signing secret: JWT_SECRET, or one generated on first start and kept in DATA_DIR (mode 0600). */
export async function loadJwtSecret(dataDir: string, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  const path = join(dataDir, 'jwt-secret');
  try {
    return new TextEncoder().encode((await readFile(path, 'utf8')).trim());
  } catch {
    await mkdir(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    // 'wx' fails if another process created it first; then use theirs.
    await writeFile(path, secret, { mode: 0o600, flag: 'wx' }).catch(() => {});
    return new TextEncoder().encode((await readFile(path, 'utf8')).trim());
  }
}

export function createAuthService(deps: {
  users: UsersRepository;
  /** The user and their membership in one read (`memberFromToken`). */
  organizations: Pick<OrganizationsRepository, 'userWithMembership'>;
  secret: Uint8Array;
  tokenTtlSeconds: number;
}) {
  const { users, organizations, secret, tokenTtlSeconds } = deps;
  /** The user id a login token names and when it was issued; 401 when it is not a valid one. */
  const verified = async (token: string): Promise<{ sub: string | undefined; iat: number | undefined }> => {
    try {
      const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, algorithms: ['HS256'] });
      return { sub: payload.sub, iat: payload.iat };
    } catch (error) {
      const expired = error instanceof joseErrors.JWTExpired;
      throw new AppError('INVALID_TOKEN', expired ? 'Token has expired' : undefined);
    }
  };
  /** 401 unless the user exists and the token was issued after their last password change. */
  const current = (user: UserRow | undefined, iat: number | undefined): UserRow => {
    if (!user || iat === undefined) throw new AppError('INVALID_TOKEN');
    if (iat < Math.floor(user.password_changed_at.getTime() / 1000)) {
      throw new AppError('INVALID_TOKEN', 'Token was issued before the password changed');
    }
    return user;
  };
  // Verifying against a real hash when the user does not exist keeps both answers equally slow,
  // so timing does not reveal which usernames exist.
  const dummyHash = hash(randomBytes(16).toString('hex'), ARGON2_OPTIONS);

  return {
    hashPassword,

    async verifyPassword(passwordHash: string, password: string): Promise<boolean> {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    },

    /**
     * Username-or-email plus password; the same error whether the user is unknown or the password wrong.
     * `beforeVerify` sees the account the login names (or undefined) before the password is checked, and
     * may throw to stop there (the per-account limit counts attempts at that point).
     */
    async authenticate(
      login: string,
      password: string,
      beforeVerify?: (user: UserRow | undefined) => void | Promise<void>,
    ): Promise<UserRow> {
      const user = await users.findByLogin(login);
      await beforeVerify?.(user);
      let ok = false;
      if (user) ok = await this.verifyPassword(user.password_hash, password);
      else await this.verifyPassword(await dummyHash, password);
      if (!user || !ok) throw new AppError('INVALID_CREDENTIALS');
      return user;
    },

    async issueToken(user: UserRow): Promise<{ token: string; expiresIn: number }> {
      const token = await new SignJWT({ username: user.username })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${tokenTtlSeconds}s`)
        .sign(secret);
      return { token, expiresIn: tokenTtlSeconds };
    },

    /** The user a token names; 401 when it is malformed, tampered, expired, or predates a password change. */
    async userFromToken(token: string): Promise<UserRow> {
      const { sub, iat } = await verified(token);
      return current(sub ? await users.findById(sub) : undefined, iat);
    },

    /**
     * The user a token names and their membership of `orgId` (their personal organization when
     * null), read in one statement: every signed-in request's check (plugins/authenticate.ts).
     */
    async memberFromToken(
      token: string,
      orgId: string | null,
    ): Promise<{ user: UserRow; membership: OrgOfMember | undefined }> {
      const { sub, iat } = await verified(token);
      const found = sub ? await organizations.userWithMembership(sub, orgId) : undefined;
      return { user: current(found?.user, iat), membership: found?.membership };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
