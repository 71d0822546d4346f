export { startPostgres, type PostgresCluster as TestPostgres } from '../../src/cli/postgres-cluster';
export { freePort } from '../../src/cli/free-port';
