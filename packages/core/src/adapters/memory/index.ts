export { createMemoryRateLimiter, createMemoryAccessLimits } from './memory-rate-limiter.js';
export { MemoryActivityFeed } from './memory-activity-feed.js';
