import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import type { StsData } from '@examhall/contract';
import type { S3Config } from '../config.js';
import type { LocalCredentials } from './localCredentials.js';

/** Issues short-lived upload credentials limited to one key prefix (read and write under it, nothing else). */
export interface UploadCredentialIssuer {
  /** Credentials for `prefix`, valid `ttlSeconds`; `sessionName` names the session in the provider's logs. */
  issue(prefix: string, ttlSeconds: number, sessionName: string): Promise<StsData>;
}

/** The local store's stateless credentials. */
export class LocalCredentialIssuer implements UploadCredentialIssuer {
  constructor(private readonly credentials: LocalCredentials) {}

  issue(prefix: string, ttlSeconds: number): Promise<StsData> {
    return this.credentials.issue({ prefix, exact: false, access: ['read', 'write'] }, ttlSeconds);
  }
}

/** The session policy of an attempt's credentials: objects under its prefix in the bucket, nothing else. */
export function prefixPolicy(bucket: string, prefix: string): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: ['s3:PutObject', 's3:GetObject'],
        Resource: [`arn:aws:s3:::${bucket}/${prefix}*`],
      },
    ],
  });
}

/** S3-compatible storage: STS AssumeRole with a session policy limited to the prefix. */
export class AssumeRoleIssuer implements UploadCredentialIssuer {
  private readonly sts: STSClient;

  constructor(private readonly s3: S3Config) {
    this.sts = new STSClient({
      region: s3.region,
      ...(s3.stsEndpoint ? { endpoint: s3.stsEndpoint } : {}),
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
  }

  async issue(prefix: string, ttlSeconds: number, sessionName: string): Promise<StsData> {
    const out = await this.sts.send(
      new AssumeRoleCommand({
        RoleArn: this.s3.roleArn,
        RoleSessionName: sessionName.replace(/[^\w+=,.@-]/g, '-').slice(0, 64),
        // AWS refuses sessions shorter than 15 minutes.
        DurationSeconds: Math.max(900, ttlSeconds),
        Policy: prefixPolicy(this.s3.bucket, prefix),
      }),
    );
    const c = out.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken || !c.Expiration)
      throw new Error('STS AssumeRole answered without credentials');
    return {
      SecurityToken: c.SessionToken,
      AccessKeyId: c.AccessKeyId,
      AccessKeySecret: c.SecretAccessKey,
      Expiration: c.Expiration.toISOString(),
      bucket: this.s3.bucket,
      region: this.s3.region,
      endpoint: this.s3.endpoint,
      prefix,
    };
  }
}
