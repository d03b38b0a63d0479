import type { Command } from 'commander';

export function registerAudit(_program: Command): void {
  // Not built yet.
}
