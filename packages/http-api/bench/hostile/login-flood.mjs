// Hostile input: a flood of wrong Basic passwords from 80 forwarded addresses (each one its own
// budget, as a botnet's would be), and in the middle of it five users signing in for the first
// time from addresses of their own, whose outcomes the note reports.
import http from 'node:http';

const floodAddresses = 80;
const durationMs = 6_000;
const maxRequests = 20_000;

function get(url, authorization, forwardedFor) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, headers: { authorization, 'x-forwarded-for': forwardedFor }, timeout: 20_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve('error'));
  });
}

const basic = (username, password) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

export async function attack(target) {
  const url = `${target.base}/nas`;
  const statuses = new Map();
  let sent = 0;
  const deadline = Date.now() + durationMs;
  const flooder = async (a) => {
    while (Date.now() < deadline && sent < maxRequests) {
      sent += 1;
      const status = await get(url, basic(`user${sent % 7}`, `guess-${sent}`), `198.51.100.${a}`);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  const flood = Promise.all(Array.from({ length: floodAddresses }, (_, a) => flooder(a)));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const legit = await Promise.all(Array.from({ length: 5 }, (_, i) => get(url, target.adminAuth, `203.0.113.${i + 1}`)));
  await flood;
  const byStatus = [...statuses].map(([status, count]) => `${count}x ${status}`).join(', ');
  return `${sent} wrong Basic passwords from ${floodAddresses} forwarded addresses (${byStatus}); 5 first sign-ins from other addresses during it answered ${legit.join(', ')}`;
}
