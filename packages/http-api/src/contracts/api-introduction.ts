/**
 * The introduction of the API description (`info.description`, Markdown): the rules that hold
 * for every operation, which the API reference shows above the operations.
 */
export const apiIntroduction = `The REST API of dms, a data management service for NAS storage: NAS devices, pools, NAS shares and the jobs that test and scan them, schedules that start those jobs, alerts raised when something goes wrong, capacity over time, SNMP trap targets and the SNMP agent, and the administration of users, API keys, CORS rules and settings.

Typed client: \`npm install @dms/sdk\`; every operation below shows its call (the \`@dms/sdk\` sample).

## Trying requests from this page

"Test Request" sends a real request, with the credential you enter, to **this server**: the one that serves this page, at its \`/api/v2\` (the *Server* box shows the full address). The examples are made to be harmless as they are: a change names the record \`0\` (or the alert source \`SOURCE\`), which no server has, so it answers 404 until you put the id or name of the one to change; no example sets or clears a password, a community or a passphrase; the examples of the settings and the SNMP configuration are empty (they change nothing); creating a user needs a password the example leaves for you to add (422 without one).

## Authentication

Every operation but \`GET /api/v2\`, this document and \`POST /auth/login\` needs an \`Authorization\` header:

- **Basic**: \`Authorization: Basic base64(username:password)\`, a user: everything (users, settings and CORS rules for admins only).
- **API key**: \`Authorization: Bearer <key>\`, the key's scopes \`controller / action\` (\`*\` is a wildcard), never more than its creator may do.
- **JWT**: \`Authorization: Bearer <token>\` with the token of \`POST /auth/login\`, the user, while JWT mode is on.

No or a bad credential is 401 (with \`WWW-Authenticate\`); a valid one without the operation's scope (\`x-scope\`) is 403. A share's \`password\` is shown only with \`nas_shares / get_password\`.

## Lists

Every list answers \`{ "count": N, "<items>": [...] }\`, where \`count\` counts every match before paging.

- Paging: \`limit\` (1–100, default 20) and \`offset\` (from 0), or \`page\` (from 1) and \`per_page\` (1–100); not both schemes in one request.
- Sorting: \`sort_by=name:desc|id\`: attributes separated by \`|\`, each \`:asc\` (default) or \`:desc\`; \`id\` always breaks ties, so pages are stable. \`null\` sorts lowest. Text sorts byte-wise (\`B\` before \`a\`); \`:ci\` after a text attribute (\`sort_by=name:ci\`, \`name:desc:ci\`) sorts it ignoring the case of ASCII letters (\`alpha, Beta, gamma\`).
- Filtering: \`ATTRIBUTE=VALUE\`, where the value may start with an operator; several filters (or one attribute repeated) must all match.

| operator | meaning | example |
|---|---|---|
| (none) or \`=\` | equal | \`name=projects\`, \`pool_id=null\` |
| \`!=\` | not equal (a null is not equal to a value) | \`username=!=bob\`, \`pool_id=!=null\` |
| \`>\` \`>=\` \`<\` \`<=\` | compare (numbers as numbers) | \`id=>10\` |
| \`><\` | in a \`\\|\`-separated list | \`pool_id=><1\\|2\` |
| \`!><\` | not in the list | \`id=!><3\\|4\` |
| \`~\` | matches a pattern (\`%\` any text, \`_\` one character) | \`name=~proj%\` |
| \`!~\` | does not match | \`path=!~tmp/%\` |
| \`~*\` | matches a pattern ignoring the case of ASCII letters | \`name=~*proj%\` finds \`Proj-000\` |
| \`!~*\` | does not match, ignoring the case of ASCII letters | \`name=!~*%TMP%\` |

\`null\` works with \`=\` and \`!=\` only; \`~\`, \`!~\`, \`~*\` and \`!~*\` with text attributes only. \`~\` and \`!~\` compare case and every character as written; \`~*\` and \`!~*\` fold \`A\`-\`Z\` to lower case and nothing else (\`É\` and \`é\` still differ). An attribute the list does not filter on, a malformed value or a bad page size is 400 naming the parameter.

## Errors

Every error answer is a \`model_error\`: \`details\` maps each attribute (or parameter) to its \`attribute_error\`s, and \`messages\` says the same in English. Every answer carries \`X-Request-Id\`; quote it when reporting a problem.

\`\`\`json
{ "details": { "name": [{ "error": "taken", "value": "projects" }] }, "messages": ["name \\"projects\\" is already taken"] }
\`\`\`

\`error\` is one of \`blank\`, \`invalid\`, \`taken\`, \`too_short\`, \`too_long\`, \`greater_than_or_equal_to\`, \`less_than_or_equal_to\`, \`not_found\`, \`frozen\`, \`forbidden\` (not allowed for this credential), \`unknown\` (an unknown field: the message names the closest known one), with \`count\` or \`value\` where they apply.

| status | when |
|---|---|
| 400 | malformed JSON, a body that is not an object, a bad or missing query parameter |
| 401 / 403 | no or bad credential / the credential lacks the scope |
| 404 | an unknown resource (or one addressed under a NAS or pool it is not in) |
| 409 | a unique name taken, or deleting a NAS that still has shares |
| 413 / 414 | a body over 1 MiB / a path over 8 KiB |
| 415 | a body sent without \`Content-Type: application/json\` |
| 422 | a field fails validation |
| 429 | a rate limit: retry after \`Retry-After\` seconds (\`RateLimit-*\` headers on every answer) |
| 503 | storage or the job queue unavailable: retry after \`Retry-After\` seconds |

## Conventions

- Paths take a numeric id or a unique name for \`{nas_id}\`, \`{pool_id}\`, \`{nas_share_id}\` and \`{user_id}\`; a name with \`/\` is written \`%2F\`.
- \`PUT\` is a partial update: absent fields stay, \`null\` clears an optional field, read-only fields are ignored, unknown fields are 422.
- Every \`GET\` answer has an \`ETag\`; \`If-None-Match\` with it gives 304 while the answer is unchanged.
- Share tests and scans are jobs: the \`PUT\` answers 202 with a \`job_id\` and \`Location: /api/v2/jobs/{job_id}\`; \`GET\` on the same path with \`job_id\`, or \`GET /jobs/{job_id}\` (and \`wait\` up to 30 s to long-poll) answers 202 while it runs and 200 once it completed or failed. \`GET /jobs\` lists every job, newest first.
- dms keeps watch: \`/schedules\` start tests and scans on an RFC 5545 rule; a share's \`health\` comes from its latest test; \`/alerts\` are conditions, raised once when they start, updated while they last and cleared when they end (each raise and clear is also a trap, at the alert's level); every completed scan is kept (\`GET /nas_shares/{id}/scans\`) and \`GET /statistics/capacity\` sums the latest ones per NAS and pool, with their growth.
- Every change is on record: \`GET /audit_events\` (admins) says who changed what, when, through which host and from which address; a secret is recorded as \`"changed"\`, never with a value.
`;

/** The tags in the order the reference lists them, each with what it groups. */
export const apiTags = [
  { name: 'nas_shares', 'x-displayName': 'NAS shares', description: 'NAS shares under a NAS, in a pool or everywhere, and their test and scan jobs.' },
  { name: 'jobs', 'x-displayName': 'Jobs', description: 'Every share test and scan, wherever it was started: who asked for it, its progress and its outcome.' },
  {
    name: 'schedules',
    'x-displayName': 'Schedules',
    description: 'Share tests and scans started on an RFC 5545 rule (RRULE with DTSTART and TZID), as jobs requested by `scheduler`.',
  },
  {
    name: 'alerts',
    'x-displayName': 'Alerts',
    description: 'Conditions dms keeps watch on, raised when they start and cleared when they end, and per source whether they are raised and at which level.',
  },
  {
    name: 'notifications',
    'x-displayName': 'Notifications',
    description:
      'Notification channels (webhook, e-mail, ntfy, Slack, Discord, Teams) that alerts and job outcomes are sent to, their deliveries and a test message.',
  },
  { name: 'statistics', 'x-displayName': 'Statistics', description: 'Capacity from the latest scans, per NAS and per pool, and its growth over a period.' },
  { name: 'nas', 'x-displayName': 'NAS', description: 'NAS devices: where shares live and how they are reached (`type`).' },
  { name: 'pools', 'x-displayName': 'Pools', description: 'Pools group NAS shares; a share is in at most one pool.' },
  { name: 'snmp', 'x-displayName': 'SNMP', description: 'SNMP trap targets, test traps, and the configuration of the SNMP agent.' },
  {
    name: 'admin',
    'x-displayName': 'Authentication and administration',
    description: 'Login, API keys, users, CORS rules, server settings and the audit log.',
  },
];
