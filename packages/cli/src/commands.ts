import { Command, CommanderError, Option } from 'commander';
import { auditActions, isDomainError, jobKinds, jobStatuses, nasCreateSchema, scheduleActions, shareHealths } from '@dms/core';
import { DataDirInUseError, NoDatabaseError } from '@dms/core/runtime';
import { dmsVersion, StartupError } from '@dms/http-api';
import { apikeyCreate, apikeyList, apikeyRevoke, corsAdd, corsList, corsRm, jwtSwitch, userAdd, userList, userPasswd, userRole } from './access-commands.js';
import { alertsDismiss, alertsList } from './alerts-command.js';
import { channelsList, channelsTest } from './channels-command.js';
import { silenceAdd, silenceDelete, silenceList, type SilenceAddFlags } from './silence-command.js';
import { auditList } from './audit-command.js';
import { backup } from './backup-command.js';
import { CliError } from './cli-error.js';
import { commandEnvironment, useCommandEnvironment } from './command-environment.js';
import { check, migrate, serve } from './data-dir-commands.js';
import { jobsList } from './jobs-command.js';
import { nasAdd, nasAddFields, nasList, nasRm } from './nas-command.js';
import { restore } from './restore-command.js';
import { schedulesAdd, schedulesList, schedulesRm, type ScheduleAddFlags } from './schedules-command.js';
import type { Flags, Options } from './schema-flags.js';
import { shareJob } from './share-command.js';
import { shareAddFields, sharesAdd, sharesList, sharesRm } from './shares-command.js';
import { sharesDu } from './shares-du-command.js';
import { snmpAgentSet, snmpAgentShow } from './snmp-command.js';
import type { Output } from './with-dms.js';

export { CliError } from './cli-error.js';

/** What a command's action resolves with: the exit code (-1: a long-running command, serve). */
type Run = (code: number) => void;

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * Declares `flags` (a table keyed by the command-line name) on `command`, and reads them back
 * under the same names: commander keys its values by camelCase (`askPassword`).
 */
function withFlags(command: Command, flags: Options): (opts: Record<string, unknown>) => Flags {
  const attributes: Array<[string, string]> = [];
  for (const [name, spec] of Object.entries(flags)) {
    const option = new Option(spec.type === 'string' ? `--${name} <value>` : `--${name}`, spec.description ?? '');
    if (spec.multiple) option.argParser(collect);
    command.addOption(option);
    attributes.push([name, option.attributeName()]);
  }
  return (opts) => Object.fromEntries(attributes.map(([name, attribute]) => [name, opts[attribute] as Flags[string]]));
}

const pageFlags: Options = {
  limit: { type: 'string', description: 'rows on the page (up to 100)' },
  offset: { type: 'string', description: 'rows skipped first' },
};

/**
 * A command that refuses an unknown flag by naming the flags it takes (commander names only the
 * one given). `unknownOption` is commander's hook for it; test/help.test.ts and
 * test/resource-commands.test.ts hold the message.
 */
class DmsCommand extends Command {
  override createCommand(name?: string): DmsCommand {
    return new DmsCommand(name);
  }

  unknownOption(flag: string): never {
    const known = this.options.map((option) => (option.required || option.optional ? `${option.long} VALUE` : option.long)).join(', ');
    const path: string[] = [];
    for (let command: Command | null = this; command; command = command.parent) path.unshift(command.name());
    return this.error(`unknown option ${flag}; the options are ${known || 'none'} ('${path.join(' ')} --help' says what they do)`, {
      code: 'commander.unknownOption',
    });
  }
}

/** The `dms` command tree: every command answers `--help` with its own usage, `dms help CMD` too. */
export function dmsProgram(out: Output, done: Run): Command {
  const program: Command = new DmsCommand('dms')
    .description(
      "dms: the data management service of this data dir (--data-dir, else DMS_DATA_DIR); every command prints it on stderr. Settings (DMS_*) come from the environment, then --config FILE, then the data dir's dms.env",
    )
    .version(`dms ${dmsVersion}`, '--version', 'print the version')
    .option('--data-dir <DIR>', 'the data dir (over DMS_DATA_DIR)')
    .option('--config <FILE>', 'KEY=value lines of DMS_* settings; the environment wins over it')
    .configureHelp({ showGlobalOptions: true })
    // Before any command runs (never for --help): the environment it reads, files merged in.
    .hook('preAction', (): void => useCommandEnvironment(commandEnvironment(program.opts<{ config?: string; dataDir?: string }>())))
    .exitOverride()
    .showSuggestionAfterError()
    .configureOutput({
      writeOut: (text) => out(text.replace(/\n$/, '')),
      writeErr: (text) => process.stderr.write(text),
      outputError: (text, write) => write(`dms: ${text.replace(/^error: /, '')}`),
    });
  const leaf = (parent: Command, name: string, description: string) => parent.command(name).description(description);
  const group = (name: string, description: string) => program.command(name).description(description);

  leaf(program, 'serve', 'serve /api/v2 (DMS_HOST, DMS_PORT, DMS_DATA_DIR, ...; README, Configuration)').action(async () => done(await serve()));
  leaf(program, 'migrate', 'apply database migrations')
    .option('--init', 'start a new empty database in a data dir whose database is gone')
    .action(async (opts: { init?: boolean }) => done(await migrate(opts, out)));
  leaf(program, 'check', 'check the SQLite database file for damage (read-only, beside a running server); exit 1 when damaged').action(async () =>
    done(await check(out)),
  );
  leaf(program, 'backup', 'copy the SQLite database to FILE, beside a running server (the secret key is not in it: keep it apart)')
    .argument('<FILE>', 'where to write the copy, e.g. dms-backup.sqlite')
    .action(async (file: string) => done(await backup(file, out)));
  leaf(program, 'restore', 'put a backup back on a stopped data dir, after checking it and that the secret key opens it')
    .argument('<FILE>', 'a copy written by dms backup')
    .action(async (file: string) => done(await restore(file, out)));
  leaf(program, 'version', 'print the version').action(() => {
    out(`dms ${dmsVersion}`);
    done(0);
  });

  const user = group('user', 'the users who sign in to the console and the API');
  leaf(user, 'add', 'add a user; the password is asked twice, not shown (read from stdin when piped)')
    .argument('<NAME>')
    .option('--admin', 'an administrator (the same as --role admin)')
    .option('--role <ROLE>', 'admin, operator, auditor, viewer or a custom role (default operator)')
    .action(async (name: string, opts: { admin?: boolean; role?: string }) => done(await userAdd(name, opts, out)));
  leaf(user, 'role', "give a user a role; it applies at the user's next request")
    .argument('<NAME>')
    .argument('<ROLE>', 'admin, operator, auditor, viewer or a custom role')
    .action(async (name: string, role: string) => done(await userRole(name, role, out)));
  leaf(user, 'list', 'list users').action(async () => done(await userList(out)));
  leaf(user, 'passwd', "set a user's password, asked as for user add")
    .argument('<NAME>')
    .action(async (name: string) => done(await userPasswd(name, out)));

  const apikey = group('apikey', 'API keys');
  const create = leaf(apikey, 'create', 'create an API key; the key is printed once, on the last line');
  const createFlags = withFlags(create, {
    name: { type: 'string', description: 'its name (required)' },
    scope: { type: 'string', multiple: true, description: 'CONTROLLER/ACTION it may call, e.g. nas_shares/show or */* (repeat it)' },
    role: { type: 'string', description: 'a role whose scopes it carries instead of --scope (admin, operator, auditor, viewer or a custom role)' },
    'expires-at': { type: 'string', description: 'when it stops working (ISO 8601)' },
  });
  create.action(async (opts: Record<string, unknown>) => done(await apikeyCreate(createFlags(opts) as Parameters<typeof apikeyCreate>[0], out)));
  leaf(apikey, 'list', 'list API keys (masked)').action(async () => done(await apikeyList(out)));
  leaf(apikey, 'revoke', 'delete an API key')
    .argument('<ID>')
    .action(async (id: string) => done(await apikeyRevoke(id, out)));

  const cors = group('cors', 'CORS rules: which browser origins may call which paths');
  const corsAddCommand = leaf(cors, 'add', 'add a CORS rule');
  const corsFlags = withFlags(corsAddCommand, {
    origins: { type: 'string', multiple: true, description: 'origins, comma-separated (--origin too)' },
    origin: { type: 'string', multiple: true },
    path: { type: 'string', description: 'the path it applies to (default *)' },
    methods: { type: 'string', multiple: true, description: 'methods, comma-separated (--method too)' },
    method: { type: 'string', multiple: true },
  });
  corsAddCommand.action(async (opts: Record<string, unknown>) => done(await corsAdd(corsFlags(opts) as Parameters<typeof corsAdd>[0], out)));
  leaf(cors, 'list', 'list CORS rules').action(async () => done(await corsList(out)));
  leaf(cors, 'rm', 'delete a CORS rule')
    .argument('<ID>')
    .action(async (id: string) => done(await corsRm(id, out)));

  const jwt = group('jwt', 'JWT mode (POST /api/v2/auth/login)');
  leaf(jwt, 'enable', 'switch JWT mode on')
    .option('--ttl <SECONDS>', 'token lifetime')
    .action(async (opts: { ttl?: string }) => done(await jwtSwitch(true, opts, out)));
  leaf(jwt, 'disable', 'switch JWT mode off').action(async () => done(await jwtSwitch(false, {}, out)));

  const nas = group('nas', 'NAS devices');
  const nasListCommand = leaf(nas, 'list', 'list NAS devices, by id');
  const nasPage = withFlags(nasListCommand, pageFlags);
  nasListCommand.action(async (opts: Record<string, unknown>) => done(await nasList(nasPage(opts) as { limit?: string; offset?: string }, out)));
  const nasAddCommand = leaf(nas, 'add', `add a NAS (--type: ${nasCreateSchema.shape.type.options.join(', ')})`).argument('<NAME>');
  const nasFields = withFlags(nasAddCommand, nasAddFields);
  nasAddCommand.action(async (name: string, opts: Record<string, unknown>) => done(await nasAdd(name, nasFields(opts), out)));
  leaf(nas, 'rm', 'delete a NAS (refused while it has shares or a schedule names it)')
    .argument('<REF>', 'id or name')
    .action(async (ref: string) => done(await nasRm(ref, out)));

  const shares = group('shares', "shares of the NAS devices ('dms share' works too)").alias('share');
  const sharesListCommand = leaf(shares, 'list', 'list shares, by id');
  const sharesListFlags = withFlags(sharesListCommand, {
    nas: { type: 'string', description: 'those of one NAS (id or name)' },
    pool: { type: 'string', description: 'those of one pool (id or name)' },
    health: { type: 'string', description: `one of ${shareHealths.join(', ')}` },
    ...pageFlags,
  });
  sharesListCommand.action(async (opts: Record<string, unknown>) => done(await sharesList(sharesListFlags(opts) as Parameters<typeof sharesList>[0], out)));
  const sharesAddCommand = leaf(shares, 'add', 'add a share to a NAS').argument('<NAS>', 'id or name').argument('<NAME>');
  const sharesAddFlags = withFlags(sharesAddCommand, {
    ...shareAddFields,
    'ask-password': { type: 'boolean', description: 'ask its password (not shown; read from stdin when piped)' },
  });
  sharesAddCommand.action(async (nasRef: string, name: string, opts: Record<string, unknown>) =>
    done(await sharesAdd(nasRef, name, sharesAddFlags(opts), out)),
  );
  leaf(shares, 'rm', 'delete a share (refused while a schedule names it; its jobs stay in the history)')
    .argument('<REF>', 'id or name')
    .action(async (ref: string) => done(await sharesRm(ref, out)));
  leaf(shares, 'du', "a share's directories by size from its latest scan, like du -h --max-depth")
    .argument('<REF>', 'id or name')
    .option('--max-depth <N>', 'directories at most N levels below the share (0-3; 3)')
    .option('--scan <ID>', 'this scan of the share rather than its latest')
    .option('--bytes', 'sizes in bytes rather than K, M, G')
    .action(async (ref: string, opts: { maxDepth?: string; scan?: string; bytes?: boolean }) => done(await sharesDu(ref, opts, out)));
  for (const kind of ['test', 'scan'] as const) {
    leaf(shares, kind, `queue a saved share's ${kind} for a running 'dms serve' to run`)
      .argument('<REF>', 'id or name')
      .option('--wait', 'follow it, a line as it advances; exit 1 if it failed')
      .option('--timeout <SECONDS>', 'how long --wait waits (60 s)')
      .action(async (ref: string, opts: { wait?: boolean; timeout?: string }) => done(await shareJob(kind, ref, opts, out)));
  }

  const jobs = group('jobs', 'the job history');
  leaf(jobs, 'list', 'list jobs, newest first')
    .option('--status <S>', jobStatuses.join(', '))
    .option('--kind <K>', jobKinds.join(', '))
    .option('--share <REF>', 'those of one share (id or name)')
    .option('--requester <NAME>', 'those one user started')
    .option('--limit <N>', 'rows on the page')
    .action(async (opts: Parameters<typeof jobsList>[0]) => done(await jobsList(opts, out)));

  const alerts = group('alerts', 'alerts: conditions raised once when they start, cleared when they end');
  leaf(alerts, 'list', 'list the open alerts (not cleared), newest first')
    .option('--limit <N>', 'rows on the page')
    .action(async (opts: { limit?: string }) => done(await alertsList(opts, out)));
  leaf(alerts, 'dismiss', 'mark an alert seen (it still clears by itself)')
    .argument('<ID>')
    .action(async (id: string) => done(await alertsDismiss(id, out)));

  const channels = group('channels', 'notification channels: where alerts and job outcomes are sent');
  leaf(channels, 'list', 'list the notification channels, by id')
    .option('--limit <N>', 'rows on the page')
    .action(async (opts: { limit?: string }) => done(await channelsList(opts, out)));
  leaf(channels, 'test', 'send a test message on a channel now; exit 1 when it failed')
    .argument('<REF>', 'the channel, by id or name')
    .action(async (ref: string) => done(await channelsTest(ref, out)));

  const silence = group('silence', 'silences: alerts still raised and listed, but sent to no channel for a while');
  const silenceListCommand = leaf(silence, 'list', 'list the silences, newest first');
  const silencePage = withFlags(silenceListCommand, pageFlags);
  silenceListCommand.action(async (opts: Record<string, unknown>) => done(await silenceList(silencePage(opts) as { limit?: string; offset?: string }, out)));
  leaf(silence, 'add', 'silence the alerts matching every matcher given, until one end: --for, --until, --until-cleared or --rrule with --duration')
    .option('--source <SOURCE>', 'an alert source, e.g. share_unreachable')
    .option('--resource-type <TYPE>', "the alerts' resource type: nas, pools, nas_shares, schedules, traps, api_keys")
    .option('--resource-id <ID>', "the alerts' resource id")
    .option('--nas <REF>', 'alerts about this NAS or a share on it, id or name')
    .option('--pool <REF>', 'alerts about this pool or a share in it, id or name')
    .option('--max-level <N>', 'alerts at or below this level (1 info … 5 critical)')
    .option('--for <DURATION>', 'from now, for 30m, 1h, 1d, 2w')
    .option('--until <ISO-8601>', 'until this date and time (UTC without an offset)')
    .option('--until-cleared', 'until an alert it matches clears')
    .option('--rrule <TEXT>', 'a maintenance window at each occurrence: "DTSTART:20261129T020000Z\\nRRULE:FREQ=WEEKLY;BYDAY=SU"')
    .option('--duration <DURATION>', 'with --rrule: how long each window lasts, e.g. 2h')
    .option('--reason <TEXT>', 'why (required)')
    .action(async (opts: SilenceAddFlags) => done(await silenceAdd(opts, out)));
  leaf(silence, 'delete', 'delete a silence: it ends now, and an alert it held that is still open is told once')
    .argument('<ID>')
    .action(async (id: string) => done(await silenceDelete(id, out)));

  const schedules = group('schedules', 'RRULE schedules of share tests and scans, run by a running dms serve');
  const schedulesListCommand = leaf(schedules, 'list', 'list schedules, by id');
  const schedulesPage = withFlags(schedulesListCommand, pageFlags);
  schedulesListCommand.action(async (opts: Record<string, unknown>) =>
    done(await schedulesList(schedulesPage(opts) as { limit?: string; offset?: string }, out)),
  );
  leaf(schedules, 'add', 'add a schedule of one target: --share REF (repeat it), --pool REF, --nas REF or --all')
    .option('--name <NAME>', 'its name (required)')
    .option('--action <A>', `${scheduleActions.join(' or ')} (required)`)
    .option('--rrule <TEXT>', 'the rule (required): "DTSTART:20261125T120000Z\\nRRULE:FREQ=DAILY" (\\n or a newline between the lines)')
    .option('--share <REF>', 'a share, id or name (repeat it)', collect)
    .option('--pool <REF>', 'the shares of a pool, id or name')
    .option('--nas <REF>', 'the shares of a NAS, id or name')
    .option('--all', 'every share')
    .action(async (opts: ScheduleAddFlags) => done(await schedulesAdd(opts, out)));
  leaf(schedules, 'rm', 'delete a schedule')
    .argument('<REF>', 'id or name')
    .action(async (ref: string) => done(await schedulesRm(ref, out)));

  const audit = group('audit', 'the audit log: who changed what, from where (rest, cli, console, scheduler)');
  leaf(audit, 'list', 'list the audit log, newest first')
    .option('--since <ISO-8601>', 'events at or after')
    .option('--action <A>', auditActions.join(', '))
    .option('--actor <NAME>', 'events of one user')
    .option('--limit <N>', 'rows on the page')
    .action(async (opts: Parameters<typeof auditList>[0]) => done(await auditList(opts, out)));

  const agent = group('snmp', 'SNMP').command('agent').description('the SNMP agent: on or off, where it listens');
  leaf(agent, 'show', 'show the agent').action(async () => done(await snmpAgentShow(out)));
  leaf(agent, 'set', 'change the agent (a running service applies a change within seconds)')
    .option('--on', 'switch it on')
    .option('--off', 'switch it off')
    .option('--address <IP>', 'the address it listens on')
    .option('--port <N>', 'the UDP port it listens on')
    .action(async (opts: Parameters<typeof snmpAgentSet>[0]) => done(await snmpAgentSet(opts, out)));
  return program;
}

/** Runs one CLI command; resolves with the process exit code. */
export async function runCli(argv: string[], out: Output = (line) => process.stdout.write(line + '\n')): Promise<number> {
  let code = 0;
  const program = dmsProgram(out, (result) => (code = result));
  if (argv.length === 0) {
    out(program.helpInformation().replace(/\n$/, ''));
    return 1;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    // Commander has printed its message (or the help): its exit code is 0 for --help and --version, 1 for a usage error.
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof CliError || error instanceof StartupError || error instanceof DataDirInUseError || error instanceof NoDatabaseError) {
      process.stderr.write(`dms: ${error.message}\n`);
    } else if (isDomainError(error)) process.stderr.write(`dms: ${error.messages.join('; ')}\n`);
    else process.stderr.write(`dms: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
