import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { checkAgentSpec, createAgent } from '../../agents/spec.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';

registerNetworkKinds();

const dirs: string[] = [];
const freshDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-decoded-once-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// A policy file is decoded once a process: a spec's check and its agent, and
// several agents naming the same file, share what was decoded.
describe('loadPolicy decodes a policy file once', () => {
  it('gives every reader of one file the same weights, named as each read it', () => {
    const dir = freshDir();
    const path = writeRandomPolicy(dir);
    const first = loadPolicy(path);
    expect(loadPolicy(path)).toBe(first);
    // The folder holding it is the same file.
    const viaFolder = loadPolicy(dir);
    expect(viaFolder.weights).toBe(first.weights);
    expect(viaFolder.path).toBe(join(dir, 'policy.json'));
  });

  it('decodes a file again once its text changed', () => {
    const dir = freshDir();
    const path = writeRandomPolicy(dir, undefined, 1);
    const before = loadPolicy(path);
    const other = readFileSync(writeRandomPolicy(freshDir(), undefined, 2), 'utf8');
    writeFileSync(path, other);
    const after = loadPolicy(path);
    expect(after).not.toBe(before);
    expect(after.weights.hidden[0]?.kernel).not.toEqual(before.weights.hidden[0]?.kernel);
  });

  it("keys a queue job's files by their path and text, apart from the disk", () => {
    const path = writeRandomPolicy(freshDir());
    const text = readFileSync(path, 'utf8');
    const sent = loadPolicy('p.json', { 'p.json': text });
    expect(loadPolicy('p.json', { 'p.json': text })).toBe(sent);
    expect(sent.path).toBe('p.json (sent with the job)');
    expect(loadPolicy(path)).not.toBe(sent);
    const otherText = readFileSync(writeRandomPolicy(freshDir(), undefined, 3), 'utf8');
    expect(loadPolicy('p.json', { 'p.json': otherText })).not.toBe(sent);
  });

  it('keeps the last few files only, so that a long-lived process does not pile them up', () => {
    const paths = Array.from({ length: 9 }, (_, i) => writeRandomPolicy(freshDir(), undefined, i));
    const first = loadPolicy(paths[0] as string);
    for (const path of paths.slice(1)) loadPolicy(path);
    expect(loadPolicy(paths[0] as string)).not.toBe(first);
    expect(loadPolicy(paths[8] as string)).toBe(loadPolicy(paths[8] as string));
  });

  it("shares the weights between a spec's check and its agent", async () => {
    const path = writeRandomPolicy(freshDir());
    await checkAgentSpec(`policy:${path}`);
    const checked = loadPolicy(path);
    const agent = await createAgent(`policy:${path}`);
    expect(loadPolicy(path)).toBe(checked);
    await agent.close?.();
  });
});
