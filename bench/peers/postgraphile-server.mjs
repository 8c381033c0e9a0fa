// PostGraphile v5 as a bench peer (bench/peers/postgraphile.ts): the amber preset over the bench
// database's public schema, served by grafserv on node:http. Run by Node 22 from the peer's cache
// directory (outside the project), where postgraphile@5 is installed; never imported by Portier.
import { createServer } from 'node:http';
import { postgraphile } from 'postgraphile';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { pgSmartTags } from 'postgraphile/utils';

const port = Number(process.env.PORT);
const host = process.env.HOST ?? '127.0.0.1';

/** @type {GraphileConfig.Preset} */
const preset = {
  extends: [PostGraphileAmberPreset],
  // Amber offers conditions only on indexed columns; bookings.status is not one (Portier filters
  // it inside the (tenant_id, start_time, id) index walk), so this tag lets `condition: { status }`
  // through for the connection shape. Nothing else in the preset is changed.
  plugins: [pgSmartTags([{ kind: 'attribute', match: 'bookings.status', tags: { behavior: '+filterBy' } }])],
  pgServices: [
    makePgService({
      connectionString: process.env.DATABASE_URL,
      schemas: ['public'],
      // The same pool size as Portier's default (DATABASE_POOL_SIZE 10).
      poolConfig: { max: Number(process.env.POOL_SIZE ?? 10) },
    }),
  ],
  grafserv: { port, host, graphqlPath: '/graphql', watch: false },
  // PEER_EXPLAIN=1: the planned SQL of each request (Grafast's explain) on stderr, for study.
  grafast: { explain: process.env.PEER_EXPLAIN === '1' },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
server.once('listening', () => process.stderr.write(`postgraphile peer listening on ${host}:${port}\n`));
await serv.addTo(server);
server.listen(port, host);

const shutdown = () => {
  server.close();
  void pgl.release().then(() => process.exit(0));
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
