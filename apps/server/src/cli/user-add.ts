/**
 * `npm run user:add -- --username alice --email alice@example.com --password 'S3cret-pass'`
 *
 * Makes an account without a server: for REGISTRATION=closed, or a first administrator. It opens the
 * database the server would (DATABASE_URL, else the embedded one in DATA_DIR; `.env` is read too),
 * applies the same rules as registration (username, email, password strength, both unique) and
 * hashes the password as the server does. The embedded database can be open in one process only:
 * stop the server first (it says so if you forget); PostgreSQL can be written while the server runs.
 *
 * Exit codes: 0 created, 1 refused (taken, database unavailable), 2 bad arguments.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase, repositories, UniqueViolation } from '@argus/db';
import { RegisterRequestSchema } from '@argus/protocol';
import { hashPassword, toPublicUser } from '../auth/auth-service';
import { type Config, loadConfig, loadDotEnv } from '../config';
import { securePrivateDir } from '../data-dir';

const USAGE = `Usage: npm run user:add -- --username NAME --email EMAIL (--password PASSWORD | --password-stdin) [--full-name NAME]

Creates an account in the database the server uses (DATABASE_URL, else the embedded one in DATA_DIR).
--password-stdin reads the password from standard input, keeping it out of the shell history.`;

export class UsageError extends Error {}

export interface NewAccount {
  username: string;
  email: string;
  password: string;
  full_name?: string;
}

/** Checks the account as registration does, then creates it; throws UsageError or the repository's error. */
export async function addUser(config: Config, account: NewAccount) {
  const parsed = RegisterRequestSchema.safeParse(account);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || 'account'}: ${issue.message}`,
    );
    throw new UsageError(`The account is not valid:\n${lines.join('\n')}`);
  }
  const body = parsed.data;
  if (!config.databaseUrl) await securePrivateDir(config.dataDir);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: join(config.dataDir, 'db') });
  try {
    const { users } = repositories(db);
    if (await users.exists('username', body.username)) throw new UniqueViolation('username');
    if (await users.exists('email', body.email)) throw new UniqueViolation('email');
    const row = await users.create({
      username: body.username,
      email: body.email,
      full_name: body.full_name || null,
      password_hash: await hashPassword(body.password),
    });
    return toPublicUser(row);
  } finally {
    await db.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        username: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        'password-stdin': { type: 'boolean' },
        'full-name': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const { username, email } = values;
  let password = values.password;
  if (values['password-stdin']) password = await readStdin();
  if (typeof username !== 'string' || typeof email !== 'string' || typeof password !== 'string') {
    console.error(`--username, --email and a password are required.\n\n${USAGE}`);
    return 2;
  }
  // Whatever this process creates under DATA_DIR is private to its user, as the server's files are.
  process.umask(0o077);
  try {
    loadDotEnv();
    const config = loadConfig();
    const fullName = values['full-name'];
    const user = await addUser(config, {
      username,
      email,
      password,
      ...(typeof fullName === 'string' ? { full_name: fullName } : {}),
    });
    const where = config.databaseUrl
      ? 'PostgreSQL (DATABASE_URL)'
      : `the embedded database in ${config.dataDir}`;
    console.log(`Created user '${user.username}' <${user.email}> (id ${user.id}) in ${where}.`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
      return 2;
    }
    if (error instanceof UniqueViolation) {
      console.error(error.field === 'email' ? 'Email already registered' : 'Username already registered');
      return 1;
    }
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
