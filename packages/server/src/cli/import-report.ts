/** What `gatehouse import` counts and how it says it: a line per organization and a summary. */
import type { ImportOutcome } from '../products/import/admin.js';

/** The parts of an import, as the summary names them. */
export const PARTS = {
  policy: 'RBAC policy',
  organizations: 'organizations',
  members: 'members',
  connections: 'SSO connections',
  passwords: 'password hashes',
} as const;
export type Part = keyof typeof PARTS;

type Count = 'created' | 'updated' | 'unchanged' | 'skipped';

/** The counts of one part (of the whole run, or of one organization). */
export class Tally {
  created = 0;
  updated = 0;
  unchanged = 0;
  skipped = 0;
  /** Organizations a previous, interrupted run finished. */
  resumed = 0;

  add(outcome: Count): void {
    this[outcome]++;
  }

  merge(other: Tally): void {
    for (const key of ['created', 'updated', 'unchanged', 'skipped', 'resumed'] as const) {
      this[key] += other[key];
    }
  }

  /** `3 new, 1 updated, 0 unchanged, 0 skipped` (and what an earlier run did, when it did). */
  toString(): string {
    const resumed = this.resumed > 0 ? `, ${this.resumed} done by an earlier run` : '';
    return (
      `${this.created} new, ${this.updated} updated, ${this.unchanged} unchanged, ` +
      `${this.skipped} skipped${resumed}`
    );
  }
}

/** The whole run: counts per part, what was skipped and why, notes, parts the source lacks. */
export class Report {
  readonly tallies: Record<Part, Tally> = {
    policy: new Tally(),
    organizations: new Tally(),
    members: new Tally(),
    connections: new Tally(),
    passwords: new Tally(),
  };
  readonly skipped: string[] = [];
  readonly notes: string[] = [];
  readonly notOffered = new Set<Part>();

  /** Counts an outcome of `part` for `what`, keeping its reason or note and what it left out. */
  record(part: Part, what: string, result: ImportOutcome, tally = this.tallies[part]): void {
    tally.add(result.outcome);
    if (result.outcome === 'skipped') {
      this.skipped.push(`${what}: ${result.reason}`);
      return;
    }
    this.skipped.push(...(result.leftOut ?? []));
    if (result.note) this.notes.push(`${what}: ${result.note}`);
  }

  /** The summary printed at the end of a run. */
  summary(): string {
    const lines = ['Summary:'];
    for (const [part, name] of Object.entries(PARTS) as [Part, string][]) {
      const counts = this.notOffered.has(part)
        ? 'not offered by the source'
        : this.tallies[part].toString();
      lines.push(`  ${name}: ${counts}`);
    }
    if (this.skipped.length > 0) {
      lines.push(`Skipped (${this.skipped.length}):`, ...this.skipped.map((s) => `  ${s}`));
    }
    if (this.notes.length > 0) {
      lines.push(`Notes (${this.notes.length}):`, ...this.notes.map((n) => `  ${n}`));
    }
    return `${lines.join('\n')}\n`;
  }
}
