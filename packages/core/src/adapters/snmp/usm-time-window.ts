/** RFC 3414 §2.2.3: an authenticated message is timely within ±150 s of the engine's time. */
export const usmTimeWindowSeconds = 150;

/** RFC 3414 §2.2.2: boots at 2^31 - 1 latch; nothing is timely any more until the engine id changes. */
const latchedBoots = 2 ** 31 - 1;

export interface UsmEngineClock {
  engineBoots: number;
  engineTime: number;
}

/**
 * RFC 3414 §3.2 step 7a, the authoritative side: an authenticated message is processed only when
 * its msgAuthoritativeEngineBoots is the engine's snmpEngineBoots (a message of an earlier boot,
 * replayed after a restart, is not) and its msgAuthoritativeEngineTime is within the window of the
 * engine's snmpEngineTime (a message captured earlier and replayed minutes later is not).
 */
export function withinTimeWindow(engine: UsmEngineClock, boots: number, time: number): boolean {
  if (engine.engineBoots >= latchedBoots) return false;
  if (boots !== engine.engineBoots) return false;
  return Math.abs(time - engine.engineTime) <= usmTimeWindowSeconds;
}
