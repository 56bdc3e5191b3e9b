import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatScope, isDomainError, nasCreateSchema, parseScopeText, scopeProblem, shareHealths, type Scope } from '@dms/core';
import { DataDirInUseError, NoDatabaseError } from '@dms/core/runtime';
import { readConfig } from '@dms/http-api';
import { StartupError, startServer } from '@dms/http-api';
import { readPassword } from './password-prompt.js';
import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import { allOnOnePage, withDms, type Output } from './with-dms.js';
import { jobs } from './jobs-command.js';
import { audit } from './audit-command.js';
import { nas } from './nas-command.js';
import { shares } from './shares-command.js';
import { dmsVersion } from '@dms/http-api';
import { backup } from './backup-command.js';
import { restore } from './restore-command.js';
import { snmp } from './snmp-command.js';

export { CliError } from './cli-error.js';

export const usage = `Usage: dms <command>

  serve                                   serve /api/v2 (DMS_HOST, DMS_PORT, DMS_DATA_DIR, ...)
  migrate [--init]                        apply database migrations; --init starts a new empty
                                          database in a data dir whose database is gone
  check                                   check the SQLite database file for damage (read-only,
                                          beside a running server); exit 1 when damaged
  backup FILE                             copy the SQLite database to FILE, beside a running
                                          server (the secret key is not in it: keep it apart)
  restore FILE                            put a backup back on a stopped data dir, after
                                          checking it and that the secret key opens it
  user add NAME [--admin]                 add a user; the password is asked twice, not shown
                                          (read from stdin when piped)
  user list                               list users
  user passwd NAME                        set a user's password, asked as for user add
  apikey create --name N --scope C/A ...  create an API key; the key is printed once, last line
  apikey list                             list API keys (masked)
  apikey revoke ID                        delete an API key
  cors add --origins O,… --path P --methods M,…    add a CORS rule (--origin/--method also work)
  cors list                               list CORS rules
  cors rm ID                              delete a CORS rule
  jwt enable [--ttl SECONDS] | jwt disable   switch JWT mode (POST /api/v2/auth/login)
  nas list [--limit N] [--offset N]       list NAS devices, by id
  nas add NAME --host H --type T [--comment C] [--price P]
                                          add a NAS; T: ${nasCreateSchema.shape.type.options.join(', ')}
  shares list [--nas REF | --pool REF] [--health H] [--limit N] [--offset N]
                                          list shares, by id (H: ${shareHealths.join(', ')})
  shares add NAS NAME --path P [--options O] [--username U] [--ask-password]
                                          add a share to a NAS; --ask-password asks its password
                                          (not shown; read from stdin when piped)
  shares test REF | shares scan REF [--wait] [--timeout SECONDS]
                                          queue a saved share's test or scan (REF: id or name)
                                          for a running 'dms serve' to run; --wait follows it,
                                          a line as it advances (up to --timeout, 60 s), and
                                          exits 1 if it failed ('dms share' works too)
  jobs list [--status S] [--kind K] [--share REF] [--requester NAME] [--limit N]
                                          list jobs, newest first (status: queued, working,
                                          completed, failed; kind: share_test, share_scan)
  audit list [--since ISO-8601] [--action A] [--actor NAME] [--limit N]
                                          list the audit log, newest first: who changed what,
                                          from where (rest, cli, console, scheduler)
  snmp agent show | snmp agent set [--on | --off] [--address IP] [--port N]
                                          the SNMP agent: on or off, where it listens (a
                                          running service applies a change within seconds)
`;

async function apikey(args: string[], out: Output): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: { name: { type: 'string' }, scope: { type: 'string', multiple: true }, 'expires-at': { type: 'string' } },
    });
    const scopes: Scope[] = [];
    for (const text of values.scope ?? []) {
      const scope = parseScopeText(text);
      if (!scope) throw new CliError(`--scope '${text}' must be CONTROLLER/ACTION, e.g. nas_shares/show or */*`);
      // Checked before the data dir is opened, with the words the REST answer uses.
      const problem = scopeProblem(scope);
      if (problem) throw new CliError(`--scope '${text}': ${problem.field} ${problem.message}`);
      scopes.push(scope);
    }
    if (!values.name) throw new CliError('--name is required');
    if (scopes.length === 0) throw new CliError('at least one --scope CONTROLLER/ACTION is required');
    const created = await withDms((rt) =>
      rt.core.apiKeys.create(cliPrincipal, { name: values.name, api_key_scopes: scopes, expires_at: values['expires-at'] ?? null }),
    );
    out(`created API key ${created.id} '${created.name}' with scopes ${created.api_key_scopes.map(formatScope).join(', ')}`);
    out('the key is shown only this once:');
    out(created.key);
    return 0;
  }
  if (sub === 'list') {
    const { api_keys: keys } = await withDms((rt) => rt.core.apiKeys.list(cliPrincipal, allOnOnePage));
    if (keys.length === 0) out('no API keys');
    else out('id\tname\tkey\tscopes\tlast used');
    for (const key of keys) {
      out(`${key.id}\t${key.name}\t${key.masked_key}\t${key.api_key_scopes.map(formatScope).join(', ')}\tlast used ${key.last_used_at ?? 'never'}`);
    }
    return 0;
  }
  if (sub === 'revoke') {
    const id = rest[0];
    if (!id) throw new CliError('usage: dms apikey revoke ID');
    await withDms((rt) => rt.core.apiKeys.destroy(cliPrincipal, id));
    out(`revoked API key ${id}`);
    return 0;
  }
  throw new CliError(`unknown apikey command '${sub ?? ''}'`);
}

async function cors(args: string[], out: Output): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    // The REST field names (--origins, --methods) and their singular forms both work.
    options: {
      origin: { type: 'string', multiple: true },
      origins: { type: 'string', multiple: true },
      path: { type: 'string' },
      method: { type: 'string', multiple: true },
      methods: { type: 'string', multiple: true },
    },
  });
  const list = (...given: Array<string[] | undefined>) =>
    given
      .flatMap((values) => values ?? [])
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter(Boolean);
  const [sub, id] = positionals;
  if (sub === 'add') {
    const rule = await withDms((rt) =>
      rt.core.corsRules.create(cliPrincipal, {
        origins: list(values.origin, values.origins),
        path: values.path ?? '*',
        methods: list(values.method, values.methods).map((method) => method.toUpperCase()),
      }),
    );
    out(`added CORS rule ${rule.id}: ${rule.origins.join(' ')} ${rule.path} ${rule.methods.join(',')}`);
    return 0;
  }
  if (sub === 'list') {
    const { cors_rules: rules } = await withDms((rt) => rt.core.corsRules.list(cliPrincipal, allOnOnePage));
    if (rules.length === 0) out('no CORS rules');
    else out('id\torigins\tpath\tmethods');
    for (const rule of rules) out(`${rule.id}\t${rule.origins.join(' ')}\t${rule.path}\t${rule.methods.join(',')}`);
    return 0;
  }
  if (sub === 'rm' && id) {
    await withDms((rt) => rt.core.corsRules.destroy(cliPrincipal, id));
    out(`removed CORS rule ${id}`);
    return 0;
  }
  throw new CliError('usage: dms cors add --origin O --path P --method M | cors list | cors rm ID');
}

async function jwt(args: string[], out: Output): Promise<number> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { ttl: { type: 'string' } } });
  const [sub] = positionals;
  if (sub !== 'enable' && sub !== 'disable') throw new CliError('usage: dms jwt enable [--ttl SECONDS] | dms jwt disable');
  const body = { jwt_enabled: sub === 'enable', ...(values.ttl === undefined ? {} : { jwt_ttl_seconds: Number(values.ttl) }) };
  const settings = await withDms((rt) => rt.core.settings.update(cliPrincipal, body));
  out(`JWT mode ${settings.jwt_enabled ? 'enabled' : 'disabled'} (token lifetime ${settings.jwt_ttl_seconds} s)`);
  return 0;
}

async function user(args: string[], out: Output): Promise<number> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { admin: { type: 'boolean' } } });
  const [sub, name] = positionals;
  if (sub === 'list') {
    const { users } = await withDms((rt) => rt.core.users.list(cliPrincipal, allOnOnePage));
    out('id\tusername\tadmin\tcreated');
    for (const u of users) out(`${u.id}\t${u.username}\t${u.admin ? 'yes' : 'no'}\t${u.created_at}`);
    return 0;
  }
  if (sub === 'add' && name) {
    const password = await readPassword(`password of ${name}`);
    const created = await withDms((rt) => rt.core.users.add({ username: name, password, admin: values.admin ?? false }, cliPrincipal));
    out(`added user ${created.username} (id ${created.id}${created.admin ? ', admin' : ''})`);
    return 0;
  }
  if (sub === 'passwd' && name) {
    const password = await readPassword(`new password of ${name}`);
    await withDms((rt) => rt.core.users.update(cliPrincipal, name, { password }));
    out(`changed the password of ${name}`);
    return 0;
  }
  throw new CliError('usage: dms user add NAME [--admin] | dms user list | dms user passwd NAME (asked twice on a terminal, else read from stdin)');
}

/** `dms check`: SQLite's full integrity check of the data dir's database, read-only. */
async function check(out: Output): Promise<number> {
  const config = readConfig();
  process.stderr.write(`dms: data dir ${config.dataDir}\n`);
  if (config.databaseUrl !== undefined)
    throw new CliError('dms check reads the SQLite database of the data dir; on PostgreSQL use its own tools (amcheck, pg_dump)');
  const file = join(config.dataDir, 'dms.sqlite');
  if (!existsSync(file)) throw new CliError(`no dms database at ${file}`);
  // Loaded here: only this command needs the SQLite adapter's checks.
  const { checkSqliteFile, restoreAdvice } = await import('@dms/core/sqlite');
  const problems = checkSqliteFile(file);
  if (problems.length === 0) {
    out(`${file}: ok`);
    return 0;
  }
  out(`${file}: damaged`);
  for (const problem of problems) out(`  ${problem}`);
  out(`to repair: ${restoreAdvice(file)}`);
  return 1;
}

/** Runs one CLI command; resolves with the process exit code. */
export async function runCli(argv: string[], out: Output = (line) => process.stdout.write(line + '\n')): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'serve': {
        const config = readConfig();
        process.stderr.write(`dms: data dir ${config.dataDir}\n`);
        const server = await startServer(config);
        // A bounded stop (DMS_SHUTDOWN_TIMEOUT_MS); a second signal forces it at once.
        let signals = 0;
        const shutdown = () => {
          signals += 1;
          if (signals > 1) return void server.stop({ now: true });
          void server.stop().then(
            () => process.exit(0),
            (error: unknown) => {
              process.stderr.write(`dms: stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
              process.exit(1);
            },
          );
        };
        process.on('SIGINT', shutdown);
        process.on('SIGTERM', shutdown);
        // A hangup (a closed terminal) stops dms as gracefully; nothing is reloaded (no ExecReload in contrib/dms.service).
        process.on('SIGHUP', shutdown);
        return -1;
      }
      case 'migrate': {
        const { values } = parseArgs({ args, options: { init: { type: 'boolean' } } });
        await withDms(async () => undefined, { createDatabase: true, ...(values.init ? { initDatabase: true } : {}) });
        out('migrations applied');
        return 0;
      }
      case 'check':
        return await check(out);
      case 'backup':
        return await backup(args, out);
      case 'restore':
        return await restore(args, out);
      case 'user':
        return await user(args, out);
      case 'apikey':
        return await apikey(args, out);
      case 'cors':
        return await cors(args, out);
      case 'jwt':
        return await jwt(args, out);
      case 'nas':
        return await nas(args, out);
      case 'share':
      case 'shares':
        return await shares(args, out);
      case 'jobs':
        return await jobs(args, out);
      case 'audit':
        return await audit(args, out);
      case 'snmp':
        return await snmp(args, out);
      case '--version':
      case 'version':
        out(`dms ${dmsVersion}`);
        return 0;
      case undefined:
      case 'help':
      case '--help':
        out(usage);
        return command === undefined ? 1 : 0;
      default:
        throw new CliError(`unknown command '${command}'\n${usage}`);
    }
  } catch (error) {
    if (error instanceof CliError || error instanceof StartupError || error instanceof DataDirInUseError || error instanceof NoDatabaseError) {
      process.stderr.write(`dms: ${error.message}\n`);
    } else if (isDomainError(error)) process.stderr.write(`dms: ${error.messages.join('; ')}\n`);
    else process.stderr.write(`dms: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
