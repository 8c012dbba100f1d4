import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { configSchema } from './config.schema';

export interface AppConfig {
  port: number;
  host: string;
  /** Take the client's address from X-Forwarded-For (behind a reverse proxy only). */
  trustProxy: boolean;
  publicUrl: string;
  dataDir: string;
  logLevel: string;
  roles: { api: boolean; worker: boolean; sfu: boolean };
  database: { url: string | null; poolSize: number };
  blob:
    | { driver: 'disk'; root: string }
    | {
        driver: 's3';
        endpoint: string | undefined;
        bucket: string;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      };
  signedUrlTtlSeconds: number;
  mail: { smtpUrl: string | null; from: string; outboxDir: string };
  identity:
    | { mode: 'embedded'; issuer: string; clientId: string; audience: string }
    | { mode: 'external'; issuer: string; clientId: string; audience: string };
  shutdownTimeoutMs: number;
  media: { ffmpegPath: string | undefined; ffprobePath: string | undefined };
  /**
   * Test-only seam: push service hosts exempt from the public-address rule, and an extra CA to trust
   * for them, so a test can run a push service on loopback with a self-signed certificate. Both are
   * empty unless set; production never needs them.
   */
  pushTest: { allowHosts: string[]; caFile: string | undefined };
  /** Origins besides PUBLIC_URL allowed as OIDC redirect targets (the Vite dev server). */
  devOrigins: string[];
  /** A shop's signed webhook (when a secret is set) or plans from administrators; where to buy. */
  billing: { webhookSecret: string | null; shopUrl: string | null };
  /** Live media: the embedded SFU's ICE settings, or an external WHIP/WHEP server. */
  live: {
    external: { whipUrl: string; whepUrl: string; token: string | null } | null;
    icePortRange: [number, number] | null;
    iceServers: string[];
    iceAdditionalHostAddresses: string[];
  };
  /**
   * This node as the others see it (SFU room routing on PostgreSQL): its internal base URL and how
   * often it says it is alive (a node silent for three beats counts as gone).
   */
  node: { url: string; heartbeatMs: number };
  /** The AI tools' processors and link downloads (docs/CONFIGURATION.md). */
  tools: {
    separator: { kind: 'builtin' } | { kind: 'onnx'; model: string } | { kind: 'remote' };
    voice: 'builtin' | 'remote';
    modelsDir: string;
    remote: { url: string; token: string } | null;
    linkMaxBytes: number;
    /** Test-only seam, like pushTest: link hosts exempt from the public-address rule. */
    linkTestAllowHosts: string[];
  };
  /**
   * Linked storage accounts (docs/CONFIGURATION.md): the kinds users may link, the hosts allowed on
   * loopback or private networks (a Nextcloud on the LAN), and the silence allowed from a provider.
   */
  connectors: {
    enabled: ('webdav' | 's3' | 'dropbox' | 'gdrive')[];
    allowHosts: string[];
    timeoutMs: number;
    /** The OAuth apps (client and endpoints) of Dropbox and Google Drive; null when not configured. */
    oauth: { dropbox: OAuthAppConfig | null; gdrive: OAuthAppConfig | null };
  };
}

/** An OAuth 2.0 app registered at a provider, and where its endpoints are (overridable for tests). */
export interface OAuthAppConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** The provider's API base (Dropbox: api.dropboxapi.com; Google: www.googleapis.com). */
  apiUrl: string;
  /** Where file bytes go (Dropbox: content.dropboxapi.com; Google: the upload host). */
  contentUrl: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Mixroom cannot start, the configuration is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export const EMBEDDED_CLIENT_ID = 'mixroom-web';
export const EMBEDDED_AUDIENCE = 'urn:mixroom:api';

/** Where other nodes reach this one by default: HOST and PORT, or the first private IPv4 address when HOST is a wildcard. */
function defaultNodeUrl(host: string, port: number): string {
  if (host !== '0.0.0.0' && host !== '::') return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const address = Object.values(networkInterfaces())
    .flat()
    .find((a) => a?.family === 'IPv4' && !a.internal)?.address;
  return `http://${address ?? '127.0.0.1'}:${port}`;
}

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** Parses the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const key = i.path.join('.');
        const value = typeof env[key] === 'string' ? ` (got "${env[key]}")` : '';
        return `${key} ${i.message}${value}`;
      }),
    );
  }
  const c = parsed.data;
  const dataDir = resolve(c.DATA_DIR);
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  const identity: AppConfig['identity'] =
    c.OIDC_ISSUER && c.OIDC_CLIENT_ID
      ? {
          mode: 'external',
          issuer: c.OIDC_ISSUER.replace(/\/$/, ''),
          clientId: c.OIDC_CLIENT_ID,
          audience: c.OIDC_AUDIENCE ?? c.OIDC_CLIENT_ID,
        }
      : { mode: 'embedded', issuer: `${publicUrl}/oidc`, clientId: EMBEDDED_CLIENT_ID, audience: EMBEDDED_AUDIENCE };
  return {
    port: c.PORT,
    host: c.HOST,
    trustProxy: c.TRUST_PROXY,
    publicUrl,
    dataDir,
    logLevel: c.LOG_LEVEL,
    roles: {
      api: c.MIXROOM_ROLES.includes('api'),
      worker: c.MIXROOM_ROLES.includes('worker'),
      sfu: c.MIXROOM_ROLES.includes('sfu'),
    },
    database: { url: c.DATABASE_URL ?? null, poolSize: c.DATABASE_POOL_SIZE },
    blob:
      c.BLOB_DRIVER === 's3'
        ? {
            driver: 's3',
            endpoint: c.S3_ENDPOINT,
            bucket: c.S3_BUCKET ?? '',
            region: c.S3_REGION,
            accessKeyId: c.S3_ACCESS_KEY_ID,
            secretAccessKey: c.S3_SECRET_ACCESS_KEY,
            forcePathStyle: c.S3_FORCE_PATH_STYLE,
          }
        : { driver: 'disk', root: resolve(dataDir, 'blobs') },
    signedUrlTtlSeconds: c.SIGNED_URL_TTL_SECONDS,
    mail: { smtpUrl: c.SMTP_URL ?? null, from: c.MAIL_FROM, outboxDir: resolve(dataDir, 'outbox') },
    identity,
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    media: { ffmpegPath: c.FFMPEG_PATH, ffprobePath: c.FFPROBE_PATH },
    pushTest: {
      allowHosts: (c.PUSH_TEST_ALLOW_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      caFile: c.PUSH_TEST_CA_FILE,
    },
    devOrigins: c.MIXROOM_DEV_ORIGIN ? [c.MIXROOM_DEV_ORIGIN.replace(/\/$/, '')] : [],
    billing: { webhookSecret: c.BILLING_WEBHOOK_SECRET ?? null, shopUrl: c.BILLING_SHOP_URL ?? null },
    tools: {
      separator: c.TOOLS_SEPARATOR.startsWith('onnx:')
        ? { kind: 'onnx', model: c.TOOLS_SEPARATOR.slice('onnx:'.length) }
        : { kind: c.TOOLS_SEPARATOR === 'remote' ? 'remote' : 'builtin' },
      voice: c.TOOLS_VOICE,
      modelsDir: resolve(c.TOOLS_MODELS_DIR ?? resolve(dataDir, 'models')),
      remote:
        c.TOOLS_REMOTE_URL && c.TOOLS_REMOTE_TOKEN ? { url: c.TOOLS_REMOTE_URL, token: c.TOOLS_REMOTE_TOKEN } : null,
      linkMaxBytes: c.TOOLS_LINK_MAX_BYTES,
      linkTestAllowHosts: (c.TOOLS_LINK_TEST_ALLOW_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    },
    connectors: {
      enabled: [
        ...new Set(list(c.CONNECTORS_ENABLED).map((k) => k.toLowerCase() as 'webdav' | 's3' | 'dropbox' | 'gdrive')),
      ],
      allowHosts: list(c.CONNECTORS_ALLOW_HOSTS).map((h) => h.replace(/^\[|\]$/g, '').toLowerCase()),
      timeoutMs: c.CONNECTORS_TIMEOUT_MS,
      oauth: {
        dropbox:
          c.CONNECTORS_DROPBOX_CLIENT_ID && c.CONNECTORS_DROPBOX_CLIENT_SECRET
            ? {
                clientId: c.CONNECTORS_DROPBOX_CLIENT_ID,
                clientSecret: c.CONNECTORS_DROPBOX_CLIENT_SECRET,
                authUrl: c.CONNECTORS_DROPBOX_AUTH_URL,
                tokenUrl: c.CONNECTORS_DROPBOX_TOKEN_URL,
                revokeUrl: `${c.CONNECTORS_DROPBOX_API_URL.replace(/\/$/, '')}/2/auth/token/revoke`,
                apiUrl: c.CONNECTORS_DROPBOX_API_URL.replace(/\/$/, ''),
                contentUrl: c.CONNECTORS_DROPBOX_CONTENT_URL.replace(/\/$/, ''),
              }
            : null,
        gdrive:
          c.CONNECTORS_GDRIVE_CLIENT_ID && c.CONNECTORS_GDRIVE_CLIENT_SECRET
            ? {
                clientId: c.CONNECTORS_GDRIVE_CLIENT_ID,
                clientSecret: c.CONNECTORS_GDRIVE_CLIENT_SECRET,
                authUrl: c.CONNECTORS_GDRIVE_AUTH_URL,
                tokenUrl: c.CONNECTORS_GDRIVE_TOKEN_URL,
                revokeUrl: c.CONNECTORS_GDRIVE_REVOKE_URL,
                apiUrl: c.CONNECTORS_GDRIVE_API_URL.replace(/\/$/, ''),
                contentUrl: c.CONNECTORS_GDRIVE_UPLOAD_URL.replace(/\/$/, ''),
              }
            : null,
      },
    },
    node: {
      url: (c.MIXROOM_NODE_URL ?? defaultNodeUrl(c.HOST, c.PORT)).replace(/\/$/, ''),
      heartbeatMs: c.MIXROOM_NODE_HEARTBEAT_MS,
    },
    live: {
      external:
        c.LIVE_WHIP_URL && c.LIVE_WHEP_URL
          ? { whipUrl: c.LIVE_WHIP_URL, whepUrl: c.LIVE_WHEP_URL, token: c.LIVE_MEDIA_TOKEN ?? null }
          : null,
      icePortRange: c.LIVE_ICE_PORT_RANGE ?? null,
      iceServers: list(c.LIVE_ICE_SERVERS),
      iceAdditionalHostAddresses: list(c.LIVE_ICE_ADDITIONAL_HOSTS),
    },
  };
}
