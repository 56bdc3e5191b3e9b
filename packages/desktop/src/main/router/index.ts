import { createCallerFactory, router } from '../trpc.js';
import { authRouter } from './auth.js';
import { accountRouter } from './account.js';
import { nasRouter } from './nas.js';
import { poolsRouter } from './pools.js';
import { sharesRouter } from './shares.js';
import { jobsRouter } from './jobs.js';
import { auditEventsRouter } from './audit-events.js';
import { snmpConfigRouter, trapsRouter } from './snmp.js';
import { apiKeysRouter, corsRulesRouter, rolesRouter, settingsRouter, usersRouter } from './admin.js';
import { overviewRouter } from './overview.js';
import { restServerRouter } from './rest-server.js';
import { schedulesRouter } from './schedules.js';
import { alertSettingsRouter, alertsRouter } from './alerts.js';
import { silencesRouter } from './silences.js';
import { statisticsRouter } from './statistics.js';
import { shareAnalyticsRouter } from './share-analytics.js';
import { notificationChannelsRouter } from './notification-channels.js';

/** The main process's API to the renderer: a thin adapter over the core services. */
export const appRouter = router({
  auth: authRouter,
  account: accountRouter,
  overview: overviewRouter,
  nas: nasRouter,
  pools: poolsRouter,
  shares: sharesRouter,
  shareAnalytics: shareAnalyticsRouter,
  jobs: jobsRouter,
  auditEvents: auditEventsRouter,
  schedules: schedulesRouter,
  alerts: alertsRouter,
  alertSettings: alertSettingsRouter,
  notificationChannels: notificationChannelsRouter,
  silences: silencesRouter,
  statistics: statisticsRouter,
  traps: trapsRouter,
  snmpConfig: snmpConfigRouter,
  users: usersRouter,
  roles: rolesRouter,
  apiKeys: apiKeysRouter,
  corsRules: corsRulesRouter,
  settings: settingsRouter,
  restServer: restServerRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in process (tests, and hosts with no transport in between). */
export const createAppCaller = createCallerFactory(appRouter);
export type AppCaller = ReturnType<typeof createAppCaller>;
