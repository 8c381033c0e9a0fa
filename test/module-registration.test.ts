import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { composeDeps } from '../src/app/deps.js';
import { MODULES } from '../src/app/modules.js';
import { defineModule } from '../src/kernel/module.js';
import type { AppDeps } from '../src/kernel/deps.js';
import { buildApp } from '../src/transport/http/app.js';
import { harness, type Harness } from './harness.js';

// Adding a module is one folder and one line in src/app/modules.ts (docs/architecture.md, "Adding a
// module"): the application layer assembles routes, loaders and jobs by looping over the list, so a
// module value appended to the list is served without touching any other file. This test appends one.
const started: string[] = [];
const exampleModule = defineModule({
  name: 'example',
  dependsOn: [],
  loaders: () => ({ exampleGreeting: { load: (name: string) => Promise.resolve(`hello ${name}`) } }),
  routes: (fastify: FastifyInstance, deps: AppDeps) => {
    fastify.get('/api/example/ping', { config: { auth: 'none' } }, async () => ({
      pong: true,
      modules: deps.modules.map((m) => m.name),
    }));
  },
  jobs: [{ name: 'example job', start: () => (started.push('example job'), { stop: () => undefined }) }],
});

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

describe('module registration', () => {
  it('serves a module appended to the module list: its routes, loaders and jobs are assembled from the list alone', async () => {
    const base = h.deps;
    const deps = composeDeps(
      {
        database: base.database,
        env: base.env,
        secret: base.secret,
        log: base.log,
        limits: base.limits,
        now: base.now,
      },
      [...MODULES, exampleModule],
    );
    const app = await buildApp(deps, { loadShedding: { maxEventLoopDelay: 0 } });
    try {
      const res = await app.fastify.inject({ method: 'GET', url: '/api/example/ping' });
      expect(res.statusCode).toBe(200);
      const body = res.json<{ pong: boolean; modules: string[] }>();
      expect(body.pong).toBe(true);
      expect(body.modules).toEqual([...MODULES.map((m) => m.name), 'example']);

      const loaders = deps.createLoaders(deps.database.db) as unknown as Record<
        string,
        { load(k: string): Promise<string> }
      >;
      expect(await loaders.exampleGreeting?.load('desk')).toBe('hello desk');

      for (const m of deps.modules)
        for (const job of m.jobs ?? []) if (job.name === 'example job') void job.start(deps).stop();
      expect(started).toEqual(['example job']);
    } finally {
      await app.fastify.close();
    }
  });

  it('the shipped list has no module twice and every module declares only listed modules', () => {
    const names = MODULES.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const m of MODULES) for (const dep of m.dependsOn) expect(names, `${m.name} depends on ${dep}`).toContain(dep);
  });
});
