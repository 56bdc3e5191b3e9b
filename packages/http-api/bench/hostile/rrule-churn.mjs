// Hostile input (issue 40 item 4): one slow rule a second (a rule that matches no date, so the
// validator runs to its time limit) from one user, while the admin's every-second schedule
// tests a share. Its scheduled jobs during the attack against the same window without it:
// `hostile.rrule-churn.scheduled_jobs_ratio` (goal ≥ 0.9).
const windowMs = 10_000;
const slowRule = 'DTSTART:20260101T000000Z\nRRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30';

async function call(target, method, path, auth, body) {
  const res = await fetch(`${target.base}${path}`, {
    method,
    headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok && method !== 'POST') throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export async function attack(target) {
  const admin = target.adminAuth;
  await call(target, 'PUT', '/settings', admin, { schedule_min_interval_seconds: 1 });
  const nas = (await call(target, 'POST', '/nas', admin, { name: 'churn-local', host: 'localhost', type: 'local' })).body;
  const share = (await call(target, 'POST', `/nas/${nas.id}/nas_shares`, admin, { name: 'churn', path: `${target.localRoot}/testdir` })).body;
  await call(target, 'POST', '/users', admin, { username: 'churner', password: 'churner-password-1' });
  const churner = `Basic ${Buffer.from('churner:churner-password-1').toString('base64')}`;
  const scheduled = async () => (await call(target, 'GET', `/jobs?requester=scheduler&nas_share_id=${share.id}&limit=1`, admin)).body.count;
  const created = await call(target, 'POST', '/schedules', admin, {
    name: 'legit-every-second',
    action: 'test',
    nas_share_ids: [share.id],
    rrule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=SECONDLY',
  });
  if (created.status !== 201) throw new Error(`the legitimate schedule was refused: ${created.status} ${JSON.stringify(created.body)}`);
  await new Promise((resolve) => setTimeout(resolve, 2_000)); // its first runs, before the windows

  const quietStart = await scheduled();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  const quiet = (await scheduled()) - quietStart;

  const statuses = new Map();
  const attackStart = await scheduled();
  const deadline = Date.now() + windowMs;
  const sends = [];
  for (let i = 0; Date.now() < deadline; i++) {
    sends.push(
      call(target, 'POST', '/schedules', churner, { name: `slow-${i}`, action: 'test', all_shares: true, rrule: slowRule }).then(
        ({ status }) => statuses.set(status, (statuses.get(status) ?? 0) + 1),
        () => statuses.set('error', (statuses.get('error') ?? 0) + 1),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const attacked = (await scheduled()) - attackStart;
  await Promise.all(sends);
  const ratio = quiet > 0 ? attacked / quiet : 0;
  const byStatus = [...statuses].map(([status, count]) => `${count}x ${status}`).join(', ');
  return {
    note: `an every-second schedule queued ${quiet} jobs in ${windowMs / 1000} s alone and ${attacked} while one user sent a slow rule a second (${byStatus}): ratio ${ratio.toFixed(2)}`,
    rows: { scheduled_jobs_ratio: { value: ratio, unit: 'ratio', goal: { op: '>=', value: 0.9 } } },
  };
}
