import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const url = (protocols: RegExp, hint: string) =>
  z
    .string()
    .refine((v) => URL.canParse(v) && protocols.test(new URL(v).protocol), { message: `must be a ${hint} URL` });

/**
 * Every setting Mixroom reads from the environment, with the embedded defaults: none is needed to
 * run on one machine. docs/CONFIGURATION.md documents each of them; keep the two in step.
 */
export const configSchema = z
  .object({
    PORT: z.coerce.number({ message: 'must be a number' }).int().min(0).max(65535).default(8080),
    // Loopback by default: a laptop install is not reachable from the network until HOST opens it.
    HOST: z.string().min(1).default('127.0.0.1'),
    // Only behind a reverse proxy that sets X-Forwarded-For: otherwise a client could claim any address.
    TRUST_PROXY: bool.default(false),
    PUBLIC_URL: url(/^https?:$/, 'http(s)').optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    MIXROOM_ROLES: z
      .string()
      .default('api,worker,sfu')
      .transform((v) =>
        v
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(['api', 'worker', 'sfu'], { message: 'roles are api, worker and sfu' })).min(1)),
    DATABASE_URL: url(/^postgres(ql)?:$/, 'postgres://').optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    BLOB_DRIVER: z.enum(['disk', 's3']).default('disk'),
    S3_ENDPOINT: url(/^https?:$/, 'http(s)').optional(),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    SIGNED_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(30)
      .max(7 * 86400)
      .default(300),
    SMTP_URL: url(/^smtps?:$/, 'smtp:// or smtps://').optional(),
    MAIL_FROM: z.string().min(3).default('Mixroom <no-reply@mixroom.local>'),
    OIDC_ISSUER: url(/^https?:$/, 'http(s)').optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_AUDIENCE: z.string().min(1).optional(),
    MIXROOM_DEV_ORIGIN: url(/^https?:$/, 'http(s)').optional(),
    FFMPEG_PATH: z.string().min(1).optional(),
    FFPROBE_PATH: z.string().min(1).optional(),
    PUSH_TEST_ALLOW_HOSTS: z.string().optional(),
    PUSH_TEST_CA_FILE: z.string().min(1).optional(),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    BILLING_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    BILLING_SHOP_URL: url(/^https?:$/, 'http(s)').optional(),
    // Live media: an external WHIP/WHEP server instead of the embedded SFU (both URLs or neither).
    LIVE_WHIP_URL: url(/^https?:$/, 'http(s)').optional(),
    LIVE_WHEP_URL: url(/^https?:$/, 'http(s)').optional(),
    LIVE_MEDIA_TOKEN: z.string().min(1).optional(),
    // The embedded SFU's UDP ports ("40000-40100"), STUN/TURN servers (comma-separated URLs) and
    // extra addresses to advertise (a public IP behind 1:1 NAT).
    LIVE_ICE_PORT_RANGE: z
      .string()
      .regex(/^\d{1,5}-\d{1,5}$/, { message: 'must look like 40000-40100' })
      .transform((v) => v.split('-').map(Number) as [number, number])
      .refine(([low, high]) => low >= 1024 && high <= 65535 && low <= high, {
        message: 'must be a range within 1024-65535',
      })
      .optional(),
    LIVE_ICE_SERVERS: z.string().optional(),
    LIVE_ICE_ADDITIONAL_HOSTS: z.string().optional(),
    // Where the other nodes reach this one (SFU room routing); a heartbeat every so often says it lives.
    MIXROOM_NODE_URL: url(/^https?:$/, 'http(s)').optional(),
    MIXROOM_NODE_HEARTBEAT_MS: z.coerce.number().int().min(200).max(60_000).default(2000),
    TOOLS_SEPARATOR: z
      .string()
      .regex(/^(builtin|remote|onnx:[\w.-]+)$/, { message: 'must be builtin, remote or onnx:<model>' })
      .default('builtin'),
    TOOLS_VOICE: z.enum(['builtin', 'remote']).default('builtin'),
    TOOLS_MODELS_DIR: z.string().min(1).optional(),
    TOOLS_REMOTE_URL: url(/^https?:$/, 'http(s)').optional(),
    TOOLS_REMOTE_TOKEN: z.string().min(1).optional(),
    TOOLS_LINK_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(500 * 1024 * 1024),
    TOOLS_LINK_TEST_ALLOW_HOSTS: z.string().optional(),
    CONNECTORS_ENABLED: z
      .string()
      .regex(/^\s*((webdav|s3|dropbox|gdrive)\s*(,\s*(webdav|s3|dropbox|gdrive)\s*)*)?$/, {
        message: 'must list webdav, s3, dropbox and/or gdrive, comma-separated',
      })
      .default(''),
    CONNECTORS_ALLOW_HOSTS: z.string().optional(),
    CONNECTORS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
    // OAuth apps registered at Dropbox and Google; the URLs default to the real services.
    CONNECTORS_DROPBOX_CLIENT_ID: z.string().min(1).optional(),
    CONNECTORS_DROPBOX_CLIENT_SECRET: z.string().min(1).optional(),
    CONNECTORS_DROPBOX_AUTH_URL: url(/^https?:$/, 'http(s)').default('https://www.dropbox.com/oauth2/authorize'),
    CONNECTORS_DROPBOX_TOKEN_URL: url(/^https?:$/, 'http(s)').default('https://api.dropboxapi.com/oauth2/token'),
    CONNECTORS_DROPBOX_API_URL: url(/^https?:$/, 'http(s)').default('https://api.dropboxapi.com'),
    CONNECTORS_DROPBOX_CONTENT_URL: url(/^https?:$/, 'http(s)').default('https://content.dropboxapi.com'),
    CONNECTORS_GDRIVE_CLIENT_ID: z.string().min(1).optional(),
    CONNECTORS_GDRIVE_CLIENT_SECRET: z.string().min(1).optional(),
    CONNECTORS_GDRIVE_AUTH_URL: url(/^https?:$/, 'http(s)').default('https://accounts.google.com/o/oauth2/v2/auth'),
    CONNECTORS_GDRIVE_TOKEN_URL: url(/^https?:$/, 'http(s)').default('https://oauth2.googleapis.com/token'),
    CONNECTORS_GDRIVE_REVOKE_URL: url(/^https?:$/, 'http(s)').default('https://oauth2.googleapis.com/revoke'),
    CONNECTORS_GDRIVE_API_URL: url(/^https?:$/, 'http(s)').default('https://www.googleapis.com'),
    CONNECTORS_GDRIVE_UPLOAD_URL: url(/^https?:$/, 'http(s)').default('https://www.googleapis.com'),
  })
  .superRefine((c, ctx) => {
    const remote = c.TOOLS_SEPARATOR === 'remote' || c.TOOLS_VOICE === 'remote';
    if (remote && !(c.TOOLS_REMOTE_URL && c.TOOLS_REMOTE_TOKEN))
      ctx.addIssue({
        code: 'custom',
        path: ['TOOLS_REMOTE_URL'],
        message: 'TOOLS_REMOTE_URL and TOOLS_REMOTE_TOKEN are required for remote',
      });
    // An enabled OAuth kind needs its app: without it no one could link an account.
    for (const [kind, prefix] of [
      ['dropbox', 'CONNECTORS_DROPBOX'],
      ['gdrive', 'CONNECTORS_GDRIVE'],
    ] as const)
      if (c.CONNECTORS_ENABLED.includes(kind) && !(c[`${prefix}_CLIENT_ID`] && c[`${prefix}_CLIENT_SECRET`]))
        ctx.addIssue({
          code: 'custom',
          path: [`${prefix}_CLIENT_ID`],
          message: `${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET are required when CONNECTORS_ENABLED lists ${kind}`,
        });
    if (c.BLOB_DRIVER === 's3' && !c.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when BLOB_DRIVER=s3' });
    }
    if (Boolean(c.OIDC_ISSUER) !== Boolean(c.OIDC_CLIENT_ID)) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_ID'], message: 'OIDC_ISSUER and OIDC_CLIENT_ID go together' });
    }
    if (Boolean(c.LIVE_WHIP_URL) !== Boolean(c.LIVE_WHEP_URL)) {
      ctx.addIssue({ code: 'custom', path: ['LIVE_WHEP_URL'], message: 'LIVE_WHIP_URL and LIVE_WHEP_URL go together' });
    }
  });

export type RawConfig = z.infer<typeof configSchema>;
