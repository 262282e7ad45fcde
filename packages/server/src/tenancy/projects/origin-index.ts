/**
 * Which browser origins some project trusts, for the CORS preflights of the SDK API: a preflight
 * names no project, so it can only be answered for the origins of all of them (docs/protocol.md
 * §2). Held in memory as one set, so a preflight costs a lookup, not a read of every project.
 */
import type { Db } from '../../context.js';
import { isLoopback } from './policy.js';
import { originsByEnvironment } from './store.js';

/** What the projects trust together: their listed origins, and loopback if any is a test one. */
interface Snapshot {
  origins: ReadonlySet<string>;
  loopback: boolean;
}

/** How long a snapshot is trusted before it is read again (other servers may change projects). */
const SNAPSHOT_MS = 5_000;

async function readSnapshot(db: Db): Promise<Snapshot> {
  const projects = await originsByEnvironment(db);
  return {
    origins: new Set(projects.flatMap((p) => p.origins)),
    loopback: projects.some((p) => p.environment === 'test'),
  };
}

/**
 * The origins of every project, read at most once per {@link SNAPSHOT_MS} and dropped at once when
 * this server creates or changes a project. Unknown origins cost nothing more than known ones:
 * the answer comes from the snapshot either way.
 */
export class AuthorizedOriginIndex {
  #snapshot: { at: number; value: Promise<Snapshot> } | null = null;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** Forgets the snapshot: the next lookup reads the projects again. */
  invalidate(): void {
    this.#snapshot = null;
  }

  /**
   * Whether some project lets a page at `origin` call the SDK API: one lists it, or it is a
   * loopback origin and some project is in the test environment.
   *
   * @example
   * await index.allows('https://app.example.com'); // true when a project lists it
   */
  async allows(origin: string): Promise<boolean> {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return false;
    }
    const snapshot = await this.#current();
    return (isLoopback(parsed) && snapshot.loopback) || snapshot.origins.has(parsed.origin);
  }

  #current(): Promise<Snapshot> {
    const cached = this.#snapshot;
    if (cached && this.now() - cached.at < SNAPSHOT_MS) return cached.value;
    // Lookups that arrive while the projects are being read share that one read.
    const value = readSnapshot(this.db);
    const entry = { at: this.now(), value };
    this.#snapshot = entry;
    // A failed read is not kept, so the next lookup tries again.
    value.catch(() => {
      if (this.#snapshot === entry) this.#snapshot = null;
    });
    return value;
  }
}
