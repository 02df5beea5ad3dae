import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyFileOf } from '../../models/export/export-policy.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import { encodePolicyFile } from '../../models/policy-checksum.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';
import { startCommand } from '../serve/command-process.ts';

describe('ayoayo web', () => {
  it('builds the page and serves it with the chosen policy as /policy.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-web-cli-'));
    const path = writeRandomPolicy(dir);
    const web = await startCommand(['web', '--policy', path, '--port', '0']);
    try {
      expect(web.stdout()).toContain(`Policy: ${path}`);
      const page = await fetch(`${web.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const html = await page.text();
      expect(html).toContain('<script type="module" src="app.js"></script>');
      const app = await fetch(`${web.url}/app.js`);
      expect(app.headers.get('content-type')).toContain('text/javascript');
      const bundle = await app.text();
      // The page carries the engine and the runner, and no Node-only module.
      expect(bundle.length).toBeGreaterThan(50_000);
      expect(bundle).not.toMatch(/from\s*["']node:/);
      const policy = await (await fetch(`${web.url}/policy.json`)).json();
      expect(policy).toEqual(JSON.parse(encodePolicyFile(policyFileOf(loadPolicy(path)))));
      expect(policy).toEqual(JSON.parse(readFileSync(path, 'utf8')));
      expect((await fetch(`${web.url}/%2e%2e/package.json`)).status).toBe(404);
      expect((await fetch(`${web.url}/../package.json`)).status).toBe(404);
      expect((await fetch(`${web.url}/nothing.js`)).status).toBe(404);
      expect((await fetch(`${web.url}/`, { method: 'POST' })).status).toBe(405);
    } finally {
      const { code, stderr } = await web.stop();
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
  });
});
