import { identitySuite } from './identity.suite';

identitySuite(async () => ({ env: {}, drop: async () => undefined }));
