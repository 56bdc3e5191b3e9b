export { runStorageContract, type StorageFactory } from './storage-contract.js';
export { requireTools, findTool, type ToolCheck } from './require-tool.js';
export { SnmptrapdPeer, type ReceivedTrap } from '../adapters/snmp/test-support/snmptrapd-peer.js';
export { createSnmpToolEnv, freeUdpPort } from '../adapters/snmp/test-support/snmp-tool-env.js';
