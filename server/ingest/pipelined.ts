// A whole transaction in ONE round trip: a simple Query holding every statement (one of them may be a
// COPY ... FROM STDIN), with the COPY's data and CopyDone written right behind it, before the server asks.
// PostgreSQL runs a multi-statement query string in order, reads the COPY's data from the connection when it
// reaches that statement, then goes on with the rest. If a statement fails, the rest of the string is skipped
// and the CopyData/CopyDone still on the wire are ignored (the protocol says so: postgres.c accepts and drops
// them outside copy mode), so the connection stays usable: the caller rolls back.
// Why: each round trip of a batch waits for the gateway's event loop (busy reading and decoding under load) and,
// with the database on another machine, for the network; a batch used to take three (BEGIN; COPY; the rest).
import type pg from 'pg';

/** Statements run in one round trip; `copy` is the data of the statement that reads FROM STDIN (if any). */
export class PipelinedQuery implements pg.Submittable {
  /** Command tags in statement order ("BEGIN", "COPY 10000", "INSERT 0 3", ...). */
  readonly tags: string[] = [];
  readonly done: Promise<string[]>;
  private settle!: (err: Error | null) => void;
  /** pg calls this on a query timeout (query_timeout), as it does its own queries'. */
  callback = (err: Error | null): void => { if (err) this.settle(err); };

  constructor(readonly text: string, private readonly copy: Buffer | null = null) {
    this.done = new Promise<string[]>((resolve, reject) => {
      this.settle = (err) => (err ? reject(err) : resolve(this.tags));
    });
  }

  submit(connection: pg.Connection): void {
    const stream = (connection as unknown as { stream: NodeJS.WritableStream & { cork(): void; uncork(): void } }).stream;
    stream.cork(); // one write for the query, the data and CopyDone
    connection.query(this.text);
    if (this.copy) {
      if (this.copy.length) {
        const head = Buffer.allocUnsafe(5);
        head[0] = 0x64; // 'd' CopyData
        head.writeUInt32BE(this.copy.length + 4, 1);
        stream.write(head);
        stream.write(this.copy);
      }
      stream.write(COPY_DONE);
    }
    stream.uncork();
  }

  handleCommandComplete(msg: { text: string }): void { this.tags.push(msg.text); }
  // pg forgets the active query on an error (the next one waits for ReadyForQuery all the same): settle now.
  handleError(err: Error): void { this.settle(err); }
  handleReadyForQuery(): void { this.settle(null); }
  // Sent by the server for a COPY FROM STDIN: the data is on its way already.
  handleCopyInResponse(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]); // 'c' CopyDone

/** Runs the statements in one round trip; resolves with their command tags, rejects with the first error. */
export function pipelined(client: pg.ClientBase, text: string, copy: Buffer | null = null): Promise<string[]> {
  const q = new PipelinedQuery(text, copy);
  client.query(q);
  return q.done;
}
