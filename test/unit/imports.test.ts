// The module graph of src/ has no circle, type-only imports included: each module can be read, and moved,
// knowing only what it imports. And each small shared check is written once.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []);
}

/** Every relative module a file names: `import … from`, `export … from`, `import('…')`, `require('…')`. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\(\s*|require\(\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => relative(SRC, resolve(dirname(file), s.replace(/\.js$/, '.ts'))));
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

describe('src/ module graph', () => {
  const graph = new Map(sources(SRC).map((f) => [relative(SRC, f), importsOf(f)]));

  it('is read whole (the scan sees the imports it must)', () => {
    expect(graph.get('hooks/io.ts')).toContain('hooks/output.ts');
    expect(graph.get('cli.ts')).toContain('main.ts'); // the type of the bundle cli.ts requires
    expect(graph.get('cli.ts')).toContain('commands/program.ts'); // the commands' bundle, likewise
  });

  it('leaves the bundle every Read loads small: the rest of the hooks are dist/main.cjs, loaded when needed', () => {
    // What cli.ts imports at run time answers a Read of a small file; zod, the estimator and the state store are
    // main.cjs's. 16 KB is far over the 5 KB it is and far under the 70 KB of the rest.
    expect(statSync(resolve(SRC, '../dist/cli.cjs')).size).toBeLessThan(16 * 1024);
    expect(statSync(resolve(SRC, '../dist/main.cjs')).size).toBeGreaterThan(48 * 1024);
  });

  it('keeps the commands and commander out of the hooks\' bundle: a hook never parses them', () => {
    const hooks = readFileSync(resolve(SRC, '../dist/main.cjs'), 'utf8');
    const commands = readFileSync(resolve(SRC, '../dist/commands.cjs'), 'utf8');
    // commander's own message, and one of doctor's: each in the commands' bundle, neither in the hooks'.
    for (const text of ['unknown option', 'no settings file or enabled plugin runs the pager']) {
      expect([text, commands.includes(text)]).toEqual([text, true]);
      expect([text, hooks.includes(text)]).toEqual([text, false]);
    }
  });

  it('has no import circle, type-only imports included', () => {
    expect(cycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('finds a circle when there is one (the check can fail)', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['a']]]))).toEqual([['a', 'b', 'a']]);
  });
});

describe('one home for each small helper', () => {
  const bodies = sources(SRC).map((f) => ({ file: relative(SRC, f), text: readFileSync(f, 'utf8') }));
  const where = (re: RegExp) => bodies.filter((b) => re.test(b.text)).map((b) => b.file);

  it('the plain-object check', () => {
    expect(where(/typeof \w+ === 'object' && \w+ !== null && !Array\.isArray/)).toEqual(['state/record.ts']);
  });

  it('own-key lookup', () => {
    expect(where(/hasOwnProperty/)).toEqual([]);
    expect(where(/function ownValue/)).toEqual(['state/record.ts']);
  });

  it('finding a tool_use by id, the hook names, the note prefix, the Claude directory', () => {
    expect(where(/b\.type === 'tool_use' && b\.id ===/)).toEqual(['hooks/transcript.ts']);
    expect(where(/'pre' \| 'post'|\['pre', 'post', 'gate'\]/)).toEqual(['hooks/output.ts']);
    expect(where(/'read-ceiling-pager:'/)).toEqual(['hooks/note.ts']);
    expect(where(/env\.CLAUDE_CONFIG_DIR/)).toEqual(['install/paths.ts']);
  });

  it('no two functions named isPagerCommand', () => {
    expect(where(/function isPagerCommand/)).toEqual(['settings/hooks.ts']);
  });
});
