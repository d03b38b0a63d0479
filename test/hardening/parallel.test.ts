// 64 concurrent pre hooks, then 64 concurrent post hooks, in one session, as real processes, while another
// process reads the state file as fast as it can. Timing on a shared machine decides how many hooks finish
// before their deadline; what must hold whatever the timing is checked exactly.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookCommand, hookEnv, hookPath, WINDOWS } from '../helpers/hook';
import { brokenPromises, figures, prose, spawnHook } from './lib';

let dir: string;
let env: NodeJS.ProcessEnv;
/** Under Wine every hook is a Windows process start: fewer of them, or the run takes many minutes. */
const N = WINDOWS ? 16 : 64;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-par-'));
  env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') };
  writeFileSync(join(dir, 'big.txt'), prose(3000));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process that parses the state file in a loop until told to stop; reports reads and torn reads. It is
 * told by a file, and answers with fs.writeSync: Node for Windows under Wine has no stream over a pipe. */
function watch(file: string): { stop: () => Promise<{ reads: number; torn: string[] }> } {
  const stopFile = join(dir, 'watch.stop');
  // Every 2 ms rather than flat out: the watcher must not take a core from the hooks it watches.
  const code = `const fs=require('fs');let reads=0;const torn=[];
  (function loop(){let t;try{t=fs.readFileSync(${JSON.stringify(file)},'utf8');reads++;try{JSON.parse(t)}catch(e){torn.push(t.slice(0,80))}}catch(e){}
  if(fs.existsSync(${JSON.stringify(hookPath(stopFile))})){fs.writeSync(1,JSON.stringify({reads,torn}));process.exit(0)}setTimeout(loop,2)})();`;
  // Under Wine the reader is a Windows process too, so that its open file meets the hooks' renames as on Windows.
  const [cmd, args] = WINDOWS ? ['wine', [hookCommand('')[1][0]!, '-e', code]] : [process.execPath, ['-e', code]];
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], env: hookEnv(process.env) });
  let out = '';
  child.stdout.setEncoding('utf8'); // a character split between two reads of the pipe stays whole
  child.stdout.on('data', (d) => { out += d; });
  const done = new Promise<{ reads: number; torn: string[] }>((resolve) => child.on('close', () => resolve(JSON.parse(out))));
  return { stop: () => { writeFileSync(stopFile, ''); return done; } };
}

describe('parallel hooks in one session', () => {
  it(`${N} concurrent pre then post: no plan lost, every note exact, the state file never torn`, async () => {
    const s = 'sess-par64';
    const file = hookPath(join(dir, 'big.txt'));
    const stateFile = join(dir, 'state', `${s}.json`);
    const watcher = watch(hookPath(stateFile));
    const input = (i: number) => ({ file_path: file, offset: 1 + i * 5, limit: 2900 });
    const preEv = (i: number) => ({ session_id: s, transcript_path: '/nonexistent.jsonl', cwd: '/', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: input(i), tool_use_id: `par_${i}` });
    const pres = await Promise.all(Array.from({ length: N }, (_, i) => spawnHook('pre', JSON.stringify(preEv(i)), env)));
    const bad: string[] = [];
    pres.forEach((r, i) => {
      if (r.code !== 0 || r.stderr) bad.push(`pre ${i} exit ${r.code} ${r.stderr}`);
      bad.push(...brokenPromises('pre', preEv(i), r.stdout));
    });
    const plans = JSON.parse(readFileSync(stateFile, 'utf8')).plans;
    const lines = prose(3000).split('\n');
    let recorded = 0;
    const posts = await Promise.all(pres.map((r, i) => {
      const out = r.stdout ? JSON.parse(r.stdout).hookSpecificOutput : undefined;
      // A clamp explained by pre itself is one it could not record; every other clamp must have its plan.
      if (out && !out.additionalContext) {
        if (plans[`par_${i}`]?.sentLines !== out.updatedInput.limit) bad.push(`plan par_${i} lost or wrong`);
        else recorded++;
      }
      const ran = out?.updatedInput ?? input(i);
      const slice = lines.slice(ran.offset - 1, ran.offset - 1 + ran.limit);
      const response = { type: 'text', file: { filePath: file, content: slice.join('\n'), numLines: slice.length, startLine: ran.offset, totalLines: 3001 } };
      const ev = { session_id: s, cwd: '/', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: ran, tool_response: response, tool_use_id: `par_${i}` };
      return spawnHook('post', JSON.stringify(ev), env).then((q) => ({ q, ev, recordedPlan: out && !out.additionalContext, ran, first: 1 + i * 5 }));
    }));
    let notes = 0;
    for (const { q, ev, recordedPlan, ran, first } of posts) {
      if (q.code !== 0 || q.stderr) bad.push(`post exit ${q.code} ${q.stderr}`);
      bad.push(...brokenPromises('post', ev, q.stdout));
      if (!q.stdout) continue;
      notes++;
      const note: string = JSON.parse(q.stdout).hookSpecificOutput.additionalContext;
      const last = first + ran.limit - 1;
      const askedLast = Math.min(first + 2899, 3000);
      const expected = `read-ceiling-pager: ${ran.file_path} has 3001 lines. This Read returned lines ${first}-${last} of the requested ${first}-${askedLast}, the most that fits under the 25000-token Read cap. Lines ${last + 1}-${askedLast} are not shown yet; offset=${last + 1} limit=`;
      const named = /offset=\d+ limit=(\d+)/.exec(note);
      // A window named to the file's end may ask for a line past it (the engine's count, 3001, and one more): the
      // reader then knows it reached the end. Under load, a post past its deadline names all the rest so.
      const most = askedLast === 3000 ? 3002 - last : askedLast - last;
      if (!recordedPlan) bad.push(`a note without a recorded plan: ${note}`);
      else if (!note.startsWith(expected) || !named || Number(named[1]) > most) bad.push(`note for ${first}: ${note}`);
    }
    const seen = await watcher.stop();
    const after = JSON.parse(readFileSync(stateFile, 'utf8'));
    expect(bad).toEqual([]);
    expect(seen.torn).toEqual([]);
    expect(recorded).toBeGreaterThan(0); // the store works at all (on Windows it once refused its own directory)
    expect(Object.keys(after.plans).every((id) => /^par_\d+$/.test(id))).toBe(true);
    figures('parallel hooks', 2 * N, 0, `${recorded}/${N} clamps recorded, ${N - recorded} passed through or self-explained under load, ${notes} notes exact, ${seen.reads} reads of the state file, 0 torn`);
  });
});
