import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import { contentDisposition } from './content-disposition';
import { holdEarlyErrors } from './early-errors';
import {
  assertSafeKey,
  BlobMissingError,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type CompletedPart,
  type DownloadSignOptions,
  type SignOptions,
} from './blob-store';

export interface S3Options {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

/** Any S3-compatible store (AWS, R2, MinIO, s3rver). Browsers PUT and GET through presigned URLs. */
export class S3BlobStore implements BlobStore {
  readonly driver = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3Options) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
      // Without these, presigned part URLs carry an empty-body CRC that real S3, R2 and MinIO reject.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Buffer | Readable, contentType?: string): Promise<void> {
    holdEarlyErrors(body);
    assertSafeKey(key);
    if (Buffer.isBuffer(body)) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
      );
      return;
    }
    await new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentType },
    }).done();
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertSafeKey(key);
    const result = await this.client
      .send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      )
      .catch((error: unknown) => {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        throw status === 404 ? new BlobMissingError() : error;
      });
    if (!(result.Body instanceof Readable)) throw new Error('Unexpected S3 body');
    return result.Body;
  }

  async head(key: string): Promise<BlobInfo | null> {
    assertSafeKey(key);
    try {
      const result = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: result.ContentLength ?? 0 };
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    let deleted = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length > 0) {
        await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
        );
        deleted += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return deleted;
  }

  signUploadUrl(key: string, options: SignOptions): Promise<string> {
    assertSafeKey(key);
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: options.expiresInSeconds,
    });
  }

  /**
   * SigV4 presigning has no nonce: with a fixed signing date the URL is identical on every call, and
   * the store answers it with the Cache-Control the signature asks for (response-cache-control).
   */
  signDownloadUrl(key: string, options: DownloadSignOptions): Promise<string> {
    assertSafeKey(key);
    const disposition = options.fileName ? contentDisposition(options.fileName) : undefined;
    const cacheControl = options.cacheSeconds !== undefined ? `private, max-age=${options.cacheSeconds}` : undefined;
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: disposition,
        ResponseContentType: options.contentType,
        ResponseCacheControl: cacheControl,
      }),
      { expiresIn: options.expiresInSeconds, ...(options.signedAt ? { signingDate: options.signedAt } : {}) },
    );
  }

  async createMultipart(key: string, _options?: { partSize: number }): Promise<string> {
    assertSafeKey(key);
    const result = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }));
    if (!result.UploadId) throw new Error('S3 returned no upload id');
    return result.UploadId;
  }

  signPartUrl(
    key: string,
    uploadId: string,
    partNumber: number,
    options: SignOptions & { contentLength?: number },
  ): Promise<string> {
    assertSafeKey(key);
    // The length is signed: the store refuses a body of any other size.
    const command = new UploadPartCommand({
      Bucket: this.bucket,
      Key: key,
      UploadId: uploadId,
      PartNumber: partNumber,
      ...(options.contentLength !== undefined ? { ContentLength: options.contentLength } : {}),
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }

  async completeMultipart(key: string, uploadId: string, parts: CompletedPart[]): Promise<void> {
    const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: ordered.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
      }),
    );
  }

  /** The part URL signs its Content-Length, so S3 holds exactly the recorded size (s3rver lacks ListParts). */
  async storedPartSize(): Promise<number | null> {
    return null;
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }
}
