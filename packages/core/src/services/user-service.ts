import { randomBytes } from 'node:crypto';
import type { CoreDeps } from './core-deps.js';
import type { User } from '../domain/user.js';
import type { UserRecord } from '../ports/storage.js';
import { passwordSchema, usernameSchema } from '../domain/user.js';
import { parseInput } from '../errors/zod-details.js';
import { z } from 'zod';

const newUserSchema = z.object({ username: usernameSchema, password: passwordSchema, admin: z.boolean().default(false) });

export function presentUser({ password_hash: _hidden, ...user }: UserRecord): User {
  return user;
}

export class UserService {
  constructor(private readonly deps: CoreDeps) {}

  async add(input: { username: string; password: string; admin?: boolean }): Promise<User> {
    const { username, password, admin } = parseInput(newUserSchema, input);
    const record = await this.deps.storage.users.create({ username, admin, password_hash: await this.deps.hasher.hash(password) });
    return presentUser(record);
  }

  /**
   * First start: creates `admin` when there is no user at all. Returns the generated
   * password when none was given, so the caller can print it once.
   */
  async ensureAdmin(password: string | undefined): Promise<{ created: boolean; generatedPassword?: string }> {
    if ((await this.deps.storage.users.count()) > 0) return { created: false };
    const generated = password ? undefined : randomBytes(18).toString('base64url');
    await this.add({ username: 'admin', password: password ?? generated!, admin: true });
    return generated ? { created: true, generatedPassword: generated } : { created: true };
  }
}
