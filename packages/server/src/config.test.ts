import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { signingKey } from './test/samlIdp.js';

/** A TOTP key (32 bytes) in hex. */
const KEY_HEX = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

describe('configuration', () => {
  it('runs on embedded defaults with nothing set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      apiPrefix: '/api',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      sms: { provider: 'console' },
      maintenance: null,
      admin: null,
      demoPhone: '13800138000',
      publicUrl: 'http://localhost:3000',
      metricsToken: undefined,
      shutdownGraceMs: 25_000,
    });
  });

  it('takes a metrics token of 16 characters or more and a shutdown grace period', () => {
    const c = loadConfig({ METRICS_TOKEN: 'sixteen-chars-ok', SHUTDOWN_GRACE_MS: '5000' });
    expect(c).toMatchObject({ metricsToken: 'sixteen-chars-ok', shutdownGraceMs: 5000 });
    const message = problems({ METRICS_TOKEN: 'short', SHUTDOWN_GRACE_MS: '-1' });
    expect(message).toContain('METRICS_TOKEN: must be at least 16 characters');
    expect(message).toContain('SHUTDOWN_GRACE_MS');
  });

  it('takes a port of its own for the metrics of processes that answer no calls, none by default', () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(problems({ METRICS_PORT: '70000' })).toContain('METRICS_PORT');
  });

  it('reads the maintenance window in UTC+8', () => {
    const c = loadConfig({ MAINTENANCE_FROM: '2024-08-05 09:00', MAINTENANCE_TO: '2024-08-07T12:00:00+08:00' });
    expect(c.maintenance).toEqual({ from: Date.UTC(2024, 7, 5, 1, 0), to: Date.UTC(2024, 7, 7, 4, 0) });
  });

  it('trims a trailing slash of API_PREFIX and accepts an empty one', () => {
    expect(loadConfig({ API_PREFIX: '/v1/' }).apiPrefix).toBe('/v1');
    expect(loadConfig({ API_PREFIX: '' }).apiPrefix).toBe('');
  });

  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error('configuration was accepted');
  };

  it('sets OpenID Connect up only whole, from an https issuer (or one on this machine), off when unset', () => {
    expect(loadConfig({}).oidc).toBeNull();
    const oidc = { OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'examhall', OIDC_CLIENT_SECRET: 's' };
    expect(loadConfig(oidc).oidc).toMatchObject({
      issuer: 'https://id.example.com',
      accountClaim: 'phone_number',
      accountKind: 'phone',
      groupsClaim: 'groups',
      name: 'SSO',
    });
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(
      /OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together/,
    );
    expect(() => loadConfig({ ...oidc, OIDC_ISSUER: 'http://id.example.com' })).toThrow(/OIDC_ISSUER: must be https/);
    expect(loadConfig({ ...oidc, OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc?.issuer).toBe('http://127.0.0.1:9000');
    expect(() => loadConfig({ ...oidc, OIDC_SCOPES: 'profile' })).toThrow(/OIDC_SCOPES: must include 'openid'/);
  });

  it('sets SAML up only whole, from an https entry point and a readable certificate (PEM or its body), off when unset', async () => {
    expect(loadConfig({}).saml).toBeNull();
    const { cert } = await signingKey('idp.example.com');
    const body = cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
    const saml = {
      SAML_IDP_SSO_URL: 'https://idp.example.com/sso',
      SAML_IDP_ISSUER: 'https://idp.example.com',
      SAML_IDP_CERT: body,
    };
    expect(loadConfig(saml).saml).toMatchObject({
      entryPoint: 'https://idp.example.com/sso',
      idpIssuer: 'https://idp.example.com',
      idpCert: cert.trim(),
      spEntityId: undefined,
      accountClaim: 'email',
      accountKind: 'email',
      groupsClaim: 'groups',
      name: 'SAML',
    });
    // Given as PEM, its line breaks written as \n (one line of an environment file): the same certificate.
    expect(loadConfig({ ...saml, SAML_IDP_CERT: cert.replace(/\n/g, '\\n') }).saml?.idpCert).toBe(cert.trim());
    expect(() => loadConfig({ SAML_IDP_SSO_URL: 'https://idp.example.com/sso' })).toThrow(
      /SAML_IDP_ISSUER and SAML_IDP_CERT go together/,
    );
    expect(() => loadConfig({ ...saml, SAML_IDP_SSO_URL: 'http://idp.example.com/sso' })).toThrow(
      /SAML_IDP_SSO_URL: must be https/,
    );
    expect(() => loadConfig({ ...saml, SAML_IDP_CERT: 'not a certificate' })).toThrow(/SAML_IDP_CERT: must be a PEM/);
    expect(() => loadConfig({ ...saml, SAML_IDP_CERT: body.slice(0, 200) })).toThrow(
      /SAML_IDP_CERT: is not a readable X.509 certificate/,
    );
    expect(() => loadConfig({ ...saml, SAML_ACCOUNT_KIND: 'username' })).toThrow(/SAML_ACCOUNT_KIND/);
    // The sign-in's cookie must come back with the provider's cross-site POST: https, or this machine's own address.
    expect(() => loadConfig({ ...saml, PUBLIC_URL: 'http://exam.example.com' })).toThrow(
      /PUBLIC_URL: must be https:\/\/ for SAML sign-in/,
    );
    expect(loadConfig({ ...saml, PUBLIC_URL: 'https://exam.example.com' }).saml).not.toBeNull();
    expect(loadConfig({ ...saml, PUBLIC_URL: 'http://127.0.0.1:8080' }).saml).not.toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'http://exam.example.com' }).publicUrl).toBe('http://exam.example.com');
  });

  it('names every invalid variable at once', () => {
    const message = problems({
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      MAINTENANCE_FROM: 'tomorrow',
      REDIS_URL: 'http://x',
    });
    for (const field of ['PORT', 'DATABASE_URL', 'MAINTENANCE_FROM', 'REDIS_URL']) expect(message).toContain(field);
  });

  it('refuses a cluster on any part of one machine: SQLite, in-process sharing, the local store', () => {
    const message = problems({ CLUSTER: 'true' });
    expect(message).toContain('DATABASE_URL: is required with CLUSTER=true');
    expect(message).toContain('REDIS_URL: is required with CLUSTER=true');
    expect(message).toContain('S3_ENDPOINT: an S3-compatible store is required with CLUSTER=true');
    const shared = {
      CLUSTER: 'true',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/examhall',
      REDIS_URL: 'redis://127.0.0.1:6379',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'examhall',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_ROLE_ARN: 'arn:aws:iam::000000000000:role/upload',
      TOTP_KEY: KEY_HEX,
    };
    expect(loadConfig(shared).cluster).toBe(true);
    // A key generated in one machine's DATA_DIR would be another process's unreadable secret.
    const { TOTP_KEY: _, ...keyless } = shared;
    expect(problems(keyless)).toContain('TOTP_KEY: is required with CLUSTER=true');
    const localStore = Object.fromEntries(Object.entries(shared).filter(([k]) => !k.startsWith('S3_')));
    expect(problems(localStore)).toContain('an S3-compatible store is required with CLUSTER=true');
    expect(loadConfig({}).cluster).toBe(false);
  });

  it('takes TOTP_KEY as 32 bytes in hex or base64, and requires it in production with one line naming it', () => {
    const key = Buffer.from(KEY_HEX, 'hex');
    expect(loadConfig({}).totpKey).toBeUndefined();
    expect(loadConfig({ TOTP_KEY: KEY_HEX }).totpKey).toEqual(key);
    expect(loadConfig({ TOTP_KEY: key.toString('base64') }).totpKey).toEqual(key);
    expect(loadConfig({ TOTP_KEY: key.toString('base64url') }).totpKey).toEqual(key);
    expect(loadConfig({ NODE_ENV: 'production', TOTP_KEY: KEY_HEX }).totpKey).toEqual(key);
    for (const bad of ['secret', KEY_HEX.slice(2), key.subarray(1).toString('base64'), `${KEY_HEX}00`]) {
      expect(problems({ TOTP_KEY: bad })).toContain('TOTP_KEY: must be 32 bytes as 64 hex digits or base64');
    }
    const production = problems({ NODE_ENV: 'production' }).split('\n');
    expect(production).toEqual([
      'Invalid configuration:',
      '  TOTP_KEY: is required with NODE_ENV=production: staff TOTP secrets are encrypted with it (openssl rand -base64 32)',
    ]);
  });

  it('paces login codes within the SMS rate: all of it by default, less or none (0) when set, with a bounded wait', () => {
    expect(loadConfig({}).sms).toMatchObject({ rate: 50, loginRate: 50, loginMaxWaitMs: 120_000 });
    expect(loadConfig({ SMS_RATE: '200', SMS_LOGIN_RATE: '' }).sms.loginRate).toBe(200);
    expect(loadConfig({ SMS_RATE: '200', SMS_LOGIN_RATE: '150', SMS_LOGIN_MAX_WAIT: '30' }).sms).toMatchObject({
      rate: 200,
      loginRate: 150,
      loginMaxWaitMs: 30_000,
    });
    expect(loadConfig({ SMS_LOGIN_RATE: '0', SMS_LOGIN_MAX_WAIT: '0' }).sms).toMatchObject({
      loginRate: 0,
      loginMaxWaitMs: 0,
    });
    expect(problems({ SMS_RATE: '50', SMS_LOGIN_RATE: '60' })).toContain('SMS_LOGIN_RATE: must not exceed SMS_RATE');
    expect(problems({ SMS_LOGIN_RATE: '-1' })).toContain('SMS_LOGIN_RATE');
    expect(problems({ SMS_LOGIN_MAX_WAIT: '601' })).toContain('SMS_LOGIN_MAX_WAIT');
  });

  it('gives texts budgets a first start can run with, each set by its variable and checked', () => {
    expect(loadConfig({}).sms.budgets).toEqual({
      resendIntervalMs: 5 * 60_000,
      resendDaily: 3,
      phoneDaily: 20,
      examDaily: 50_000,
      teamDaily: 200_000,
    });
    expect(
      loadConfig({
        SMS_RESEND_INTERVAL_MINUTES: '0',
        SMS_RESEND_DAILY: '5',
        SMS_PHONE_DAILY: '12',
        SMS_EXAM_DAILY: '1000',
        SMS_TEAM_DAILY: '3000',
      }).sms.budgets,
    ).toEqual({ resendIntervalMs: 0, resendDaily: 5, phoneDaily: 12, examDaily: 1000, teamDaily: 3000 });
    const bad = problems({
      SMS_RESEND_DAILY: '0',
      SMS_PHONE_DAILY: 'many',
      SMS_EXAM_DAILY: '-1',
      SMS_TEAM_DAILY: '1.5',
    });
    for (const name of ['SMS_RESEND_DAILY', 'SMS_PHONE_DAILY', 'SMS_EXAM_DAILY', 'SMS_TEAM_DAILY'])
      expect(bad).toContain(`  ${name}: `);
    expect(problems({ SMS_RESEND_INTERVAL_MINUTES: '1441' })).toContain('SMS_RESEND_INTERVAL_MINUTES');
  });

  it('checks variables that go together', () => {
    expect(problems({ SMS_PROVIDER: 'webhook' })).toContain('SMS_WEBHOOK_URL: is required when SMS_PROVIDER=webhook');
    expect(problems({ ADMIN_PHONE: '13900000000' })).toContain('ADMIN_PASSWORD');
    expect(problems({ ADMIN_PHONE: '13900000000', ADMIN_PASSWORD: 'short' })).toContain('at least 8');
    expect(problems({ MAINTENANCE_FROM: '2024-08-07 12:00', MAINTENANCE_TO: '2024-08-05 09:00' })).toContain(
      'after MAINTENANCE_FROM',
    );
  });
});
