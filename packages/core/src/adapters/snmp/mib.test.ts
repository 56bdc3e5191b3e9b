import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { severityLevels } from '../../domain/trap.js';
import { eventCatalogue, type DmsEventName } from '../../domain/events.js';
import { requireTools } from '../../testing/require-tool.js';
import { agentObjectArcs, agentObjectOid, eventObjectArcs, eventObjectOid, eventObjects, notificationObjects, notificationOid } from './dms-mib.js';
import { snmpDefaults } from '../../defaults.js';

const defaultEnterpriseOid = snmpDefaults.enterpriseOid;
import { loadMibPath, mibSearchPath } from './mib-path.js';
import { createSnmpToolEnv, type SnmpToolEnv } from '../../testing/snmp-tool-env.js';

const run = promisify(execFile);
const tools = requireTools(['snmptranslate'], 'bash .ci/setup-snmp.sh');

/** share_test_failed → dmsShareTestFailed, the descriptor of its NOTIFICATION-TYPE. */
const descriptor = (name: string) => `dms${name.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}`;

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!tools.ok)('DMS-MIB', () => {
  let tool: SnmpToolEnv;
  beforeAll(() => {
    tool = createSnmpToolEnv();
  });
  afterAll(() => tool.dispose());

  const translate = (...args: string[]) => run(tools.paths['snmptranslate']!, ['-M', mibSearchPath(), '-m', 'DMS-MIB', ...args], { env: tool.env });

  it('loads with no error or warning', async () => {
    const { stdout, stderr } = await translate('-Tp', '-IR', 'dms');
    expect(stderr).toBe('');
    expect(stdout).toContain('+--dms(61999)');
    expect(stdout).toContain('dmsNotifications(0)');
  });

  it('raises no warning about itself even at the most verbose level', async () => {
    // -PW also reports the base modules' long descriptions; only DMS-MIB's own lines matter here
    const { stderr } = await translate('-PW', '-Tp', '-IR', 'dms');
    const ours = stderr.split('\n').filter((line) => line.includes('DMS-MIB'));
    expect(ours).toEqual([]);
  });

  it('has one notification per catalogue entry, at dmsNotifications.N', async () => {
    const entries = Object.entries(eventCatalogue);
    const { stdout, stderr } = await translate('-On', ...entries.map(([name]) => `DMS-MIB::${descriptor(name)}`));
    expect(stderr).toBe('');
    expect(stdout.split('\n').filter((line) => line !== '')).toEqual(
      entries.map(([, entry]) => `.${notificationOid(defaultEnterpriseOid, entry.notification)}`),
    );
    const declared = readFileSync(join(loadMibPath(), 'DMS-MIB.txt'), 'utf8').match(/^\w+\s+NOTIFICATION-TYPE$/gm);
    expect(declared).toHaveLength(entries.length);
  });

  it('declares each notification’s objects in the order the sender sends them, the alert ones with source and id', async () => {
    for (const name of Object.keys(eventCatalogue) as DmsEventName[]) {
      const { stdout, stderr } = await translate('-Td', `DMS-MIB::${descriptor(name)}`);
      expect(stderr).toBe('');
      const objects = /OBJECTS\s*\{([^}]*)\}/
        .exec(stdout)?.[1]
        ?.split(',')
        .map((object) => object.trim());
      expect(objects, name).toEqual(notificationObjects(name));
    }
    expect(notificationObjects('alert_raised')).toEqual([...eventObjects, 'dmsAlertSource', 'dmsAlertId']);
    expect(notificationObjects('alert_cleared')).toEqual([...eventObjects, 'dmsAlertSource', 'dmsAlertId']);
  });

  it('puts the event and agent objects where the sender and the agent send them', async () => {
    const events = Object.keys(eventObjectArcs) as (keyof typeof eventObjectArcs)[];
    const agent = Object.keys(agentObjectArcs) as (keyof typeof agentObjectArcs)[];
    const { stdout, stderr } = await translate('-On', ...[...events, ...agent].map((name) => `DMS-MIB::${name}.0`));
    expect(stderr).toBe('');
    expect(stdout.split('\n').filter((line) => line !== '')).toEqual([
      ...events.map((name) => `.${eventObjectOid(defaultEnterpriseOid, name)}.0`),
      ...agent.map((name) => `.${agentObjectOid(defaultEnterpriseOid, name)}.0`),
    ]);
  });

  it('puts every event object in a group the compliance makes mandatory', () => {
    // snmptranslate -Td leaves a group's members out: read them from the module's text
    const mib = readFileSync(join(loadMibPath(), 'DMS-MIB.txt'), 'utf8');
    const members = (pattern: RegExp) => [...mib.matchAll(pattern)].flatMap((match) => (match[1] ?? '').split(',').map((name) => name.trim()));
    expect(
      members(/^\w+ OBJECT-GROUP\s+OBJECTS\s*\{([^}]*)\}/gm)
        .filter((name) => name in eventObjectArcs)
        .sort(),
    ).toEqual(Object.keys(eventObjectArcs).sort());
    expect(members(/NOTIFICATIONS\s*\{([^}]*)\}/gm).sort()).toEqual(Object.keys(eventCatalogue).map(descriptor).sort());
    expect(members(/MANDATORY-GROUPS\s*\{([^}]*)\}/gm)).toEqual([
      'dmsEventGroup',
      'dmsAgentGroup',
      'dmsNotificationGroup',
      'dmsAlertGroup',
      'dmsAlertNotificationGroup',
    ]);
  });

  it('names the severities as the domain does', async () => {
    const { stdout } = await translate('-Tp', 'DMS-MIB::dmsEventSeverity');
    const values = Object.entries(severityLevels)
      .map(([level, name]) => `${name}(${level})`)
      .join(', ');
    expect(stdout).toContain(`Values: ${values}`);
  });
});
