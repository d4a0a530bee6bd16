// In-process counters of the gateway (exposed by startGateway().metrics).
export interface GatewayMetrics {
  connections: number;
  bytesIn: number;
  frames: number;
  badFrames: number;
  garbageBytes: number;
  messages: number;
  positions: number;
  implausiblePositions: number; // fix time in the future or over 5 years old: not stored
  events: number;
  pendingMessages: number;
  batches: number;
  directCopies: number; // batches whose positions went by plain COPY (no duplicate)
  batchFailures: number;
  rejectedMessages: number;
  refusedMessages: number; // protocol other than the registration's tecnologia: not stored, not acked
  networkRefused: number;  // of refusedMessages: from outside the company's allowed networks (empresa.redes_permitidas)
  evictedConnections: number; // unidentified connections closed to make room under the per-address cap
  garbageCloses: number; // connections closed for sending too many bytes without a valid frame
  idleTimeouts: number; // device sockets closed for silence
  pendingDropped: number; // messages of unknown devices not kept (bounds of the pending list)
  acksSent: number;
  queued: number;
  readPauses: number; // times reading paused because the write queue was full (backpressure)
  commandsSent: number;
  commandsDone: number;
}

export function newMetrics(): GatewayMetrics {
  return {
    connections: 0, bytesIn: 0, frames: 0, badFrames: 0, garbageBytes: 0, messages: 0, positions: 0, implausiblePositions: 0, events: 0,
    pendingMessages: 0, batches: 0, directCopies: 0, batchFailures: 0, rejectedMessages: 0, refusedMessages: 0, networkRefused: 0, evictedConnections: 0, garbageCloses: 0, idleTimeouts: 0, pendingDropped: 0, acksSent: 0, queued: 0, readPauses: 0,
    commandsSent: 0, commandsDone: 0,
  };
}
