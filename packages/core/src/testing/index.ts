export { runStorageContract, type StorageFactory } from './storage-contract.js';
export { requireTools, findTool, type ToolCheck } from './require-tool.js';
export { freePort } from './fixture-support.js';
export { recordingRun, shareLocation, type RecordedStep, type RecordingRun } from './recording-run.js';
export {
  startSambaServer,
  sambaCheck,
  type SambaServer,
  type SambaServerOptions,
  type SambaUser,
} from './samba-server.js';
export { startGaneshaServer, ganeshaCheck, type GaneshaServer, type GaneshaServerOptions } from './ganesha-server.js';
export { SnmptrapdPeer, type ReceivedTrap } from './snmptrapd-peer.js';
export { createSnmpToolEnv, freeUdpPort, type SnmpToolEnv } from './snmp-tool-env.js';
export { countingHasher } from './counting-hasher.js';
export { createTestDatabase, postgresUnreachable, testServerUrl, type TestDatabase } from './postgres-test-database.js';
export { openTestDms, type TestAdapter, type TestDms, type TestDmsOptions } from './test-dms.js';
export { holdSqliteWriteLock, type SqliteLockHolder } from './sqlite-lock-holder.js';
export { wireCore, type WiredCore } from '../services/create-core.js';
