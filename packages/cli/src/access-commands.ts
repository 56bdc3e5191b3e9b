import { formatScope, parseScopeText, scopeProblem, type Scope } from '@dms/core';
import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import { readPassword } from './password-prompt.js';
import { allOnOnePage, withDms, type Output } from './with-dms.js';

/** `dms apikey create`: the key is printed once, on the last line (scripts read it there). */
export async function apikeyCreate(values: { name?: string; scope?: string[]; role?: string; 'expires-at'?: string }, out: Output): Promise<number> {
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
  const { role } = values;
  if ((scopes.length === 0) === (role === undefined)) throw new CliError('give either --role ROLE or at least one --scope CONTROLLER/ACTION, not both');
  const name = values.name;
  const carried = role === undefined ? { api_key_scopes: scopes } : { role };
  const created = await withDms((rt) => rt.core.apiKeys.create(cliPrincipal, { name, ...carried, expires_at: values['expires-at'] ?? null }));
  const what = created.role === null ? 'scopes' : `role ${created.role}, scopes`;
  out(`created API key ${created.id} '${created.name}' with ${what} ${created.api_key_scopes.map(formatScope).join(', ')}`);
  out('the key is shown only this once:');
  out(created.key);
  return 0;
}

export async function apikeyList(out: Output): Promise<number> {
  const { api_keys: keys } = await withDms((rt) => rt.core.apiKeys.list(cliPrincipal, allOnOnePage));
  if (keys.length === 0) out('no API keys');
  else out('id\tname\tkey\tscopes\tlast used');
  for (const key of keys) {
    const scopes = `${key.role === null ? '' : `role ${key.role}: `}${key.api_key_scopes.map(formatScope).join(', ')}`;
    out(`${key.id}\t${key.name}\t${key.masked_key}\t${scopes}\tlast used ${key.last_used_at ?? 'never'}`);
  }
  return 0;
}

export async function apikeyRevoke(id: string, out: Output): Promise<number> {
  await withDms((rt) => rt.core.apiKeys.destroy(cliPrincipal, id));
  out(`revoked API key ${id}`);
  return 0;
}

/** The REST field names (--origins, --methods) and their singular forms both work; each takes a comma-separated list too. */
export async function corsAdd(
  values: { origin?: string[]; origins?: string[]; path?: string; method?: string[]; methods?: string[] },
  out: Output,
): Promise<number> {
  const list = (...given: Array<string[] | undefined>) =>
    given
      .flatMap((values) => values ?? [])
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter(Boolean);
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

export async function corsList(out: Output): Promise<number> {
  const { cors_rules: rules } = await withDms((rt) => rt.core.corsRules.list(cliPrincipal, allOnOnePage));
  if (rules.length === 0) out('no CORS rules');
  else out('id\torigins\tpath\tmethods');
  for (const rule of rules) out(`${rule.id}\t${rule.origins.join(' ')}\t${rule.path}\t${rule.methods.join(',')}`);
  return 0;
}

export async function corsRm(id: string, out: Output): Promise<number> {
  await withDms((rt) => rt.core.corsRules.destroy(cliPrincipal, id));
  out(`removed CORS rule ${id}`);
  return 0;
}

export async function jwtSwitch(enable: boolean, values: { ttl?: string }, out: Output): Promise<number> {
  const body = { jwt_enabled: enable, ...(values.ttl === undefined ? {} : { jwt_ttl_seconds: Number(values.ttl) }) };
  const settings = await withDms((rt) => rt.core.settings.update(cliPrincipal, body));
  out(`JWT mode ${settings.jwt_enabled ? 'enabled' : 'disabled'} (token lifetime ${settings.jwt_ttl_seconds} s)`);
  return 0;
}

export async function userList(out: Output): Promise<number> {
  const { users } = await withDms((rt) => rt.core.users.list(cliPrincipal, allOnOnePage));
  out('id\tusername\trole\tadmin\tcreated');
  for (const u of users) out(`${u.id}\t${u.username}\t${u.role}\t${u.admin ? 'yes' : 'no'}\t${u.created_at}`);
  return 0;
}

export async function userAdd(name: string, values: { admin?: boolean; role?: string }, out: Output): Promise<number> {
  const asked = { ...(values.admin ? { admin: true } : {}), ...(values.role === undefined ? {} : { role: values.role }) };
  const password = await readPassword(`password of ${name}`);
  const created = await withDms((rt) => rt.core.users.add({ username: name, password, ...asked }, cliPrincipal));
  out(`added user ${created.username} (id ${created.id}, role ${created.role})`);
  return 0;
}

/** `dms user role NAME ROLE`: audited as any change of role, `{from, to}`. */
export async function userRole(name: string, role: string, out: Output): Promise<number> {
  const updated = await withDms((rt) => rt.core.users.update(cliPrincipal, name, { role }));
  out(`${updated.username} now has the role ${updated.role}`);
  return 0;
}

export async function userPasswd(name: string, out: Output): Promise<number> {
  const password = await readPassword(`new password of ${name}`);
  await withDms((rt) => rt.core.users.update(cliPrincipal, name, { password }));
  out(`changed the password of ${name}`);
  return 0;
}
