import type { corsMethods } from '@dms/core';

export type CorsMethod = (typeof corsMethods)[number];

// Written again, as the SNMP choices are (the core's index is not for the bundle). A record, not
// a list: the type check then also catches a method the core has and this lacks.
const corsMethodSet = { GET: true, POST: true, PUT: true, DELETE: true } as const satisfies Record<CorsMethod, true>;
export const corsMethodChoices = Object.keys(corsMethodSet) as CorsMethod[];
