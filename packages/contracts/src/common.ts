import { DATE_BOUNDS, fileNameProblem, messageProblem, nameProblem, textProblem } from '@mixroom/shared';
import { z } from 'zod';

/** The one error shape every API failure uses. */
export const errorResponse = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const idParam = z.object({ id: z.uuid() });
/**
 * An instant as ISO 8601 with its offset ("2027-01-31T00:00:00Z"), between 2000 and 2200: a bare
 * string let "not-a-date" and year 275760 reach the database (which refused them with a 500).
 */
export const isoDate = z.iso
  .datetime({ offset: true, message: 'Use a date and time such as 2027-01-31T00:00:00Z.' })
  .refine(
    (value) => {
      const at = Date.parse(value);
      return at >= Date.parse(DATE_BOUNDS.min) && at <= Date.parse(DATE_BOUNDS.max);
    },
    { message: DATE_BOUNDS.message },
  )
  .meta({ format: 'date-time' });

/** Refuses a name the shared name rule refuses (controls, text-direction marks, separators, dots only), with its reason. */
export const safeName = <T extends z.ZodType<string>>(schema: T) =>
  schema.superRefine((value, context) => {
    const problem = nameProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** Refuses a file name the rule refuses, separators included (a file name is one path segment). */
export const safeFileName = <T extends z.ZodType<string>>(schema: T) =>
  schema.superRefine((value, context) => {
    const problem = fileNameProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** Refuses a message shown to others as from its sender: free text's rule, no direction or invisible characters. */
export const safeMessage = <T extends z.ZodType<string>>(schema: T) =>
  schema.superRefine((value, context) => {
    const problem = messageProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** Refuses free text holding control characters other than tabs and line breaks. */
export const safeText = <T extends z.ZodType<string>>(schema: T) =>
  schema.superRefine((value, context) => {
    const problem = textProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
