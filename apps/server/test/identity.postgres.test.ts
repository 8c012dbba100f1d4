import { identitySuite } from './identity.suite';
import { createTestDatabase } from './helpers/test-server';

identitySuite(async () => {
  const database = await createTestDatabase(process.env.TEST_DATABASE_URL ?? '');
  return { env: { DATABASE_URL: database.url }, drop: database.drop };
});
