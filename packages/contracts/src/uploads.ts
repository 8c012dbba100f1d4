import { z } from 'zod';

export const uploadPart = z.object({
  partNumber: z.number().int().min(1).max(10_000),
  etag: z.string().min(1),
  size: z.number().int().min(0),
});
export type UploadPart = z.infer<typeof uploadPart>;

export const uploadSession = z.object({
  id: z.uuid(),
  size: z.number().int(),
  partSize: z.number().int(),
  partCount: z.number().int(),
  status: z.enum(['open', 'completed', 'aborted']),
  parts: z.array(uploadPart),
});
export type UploadSession = z.infer<typeof uploadSession>;
