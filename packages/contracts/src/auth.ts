import { LIMITS } from '@mixroom/shared';
import { z } from 'zod';
import { safeName } from './common';

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(LIMITS.emailMax)
  .pipe(z.email({ message: 'Please enter a valid e-mail address.' }));
const password = z
  .string()
  .min(LIMITS.passwordMin, { message: `Use at least ${LIMITS.passwordMin} characters.` })
  .max(LIMITS.passwordMax, { message: `Use at most ${LIMITS.passwordMax} characters.` });

export const signUpBody = z.object({
  displayName: safeName(
    z
      .string()
      .trim()
      .min(1, { message: 'Please enter your name.' })
      .max(LIMITS.displayNameMax, { message: `Use at most ${LIMITS.displayNameMax} characters.` }),
  ),
  email,
  password,
});
export type SignUpBody = z.infer<typeof signUpBody>;

export const signInBody = z.object({ email, password: z.string().min(1, { message: 'Please enter your password.' }) });
export type SignInBody = z.infer<typeof signInBody>;

export const passwordResetRequestBody = z.object({ email });
export const passwordResetConfirmBody = z.object({ token: z.string().min(20).max(200), password });

/** What the sign-in screen needs to know about an OIDC interaction. */
export const interactionDetails = z.object({
  uid: z.string(),
  prompt: z.string(),
  clientName: z.string(),
  signedInEmail: z.string().nullable(),
  screen: z.enum(['signin', 'signup']),
});
export type InteractionDetails = z.infer<typeof interactionDetails>;

export const redirectResponse = z.object({ redirectTo: z.string() });
export const messageResponse = z.object({ message: z.string() });

/** Public identity settings the web app reads before it starts its OIDC client. */
export const authConfigResponse = z
  .object({
    issuer: z.string(),
    clientId: z.string(),
    scope: z.string(),
    embedded: z.boolean(),
    apiAudience: z.string(),
  })
  .meta({ id: 'AuthConfig' });
export type AuthConfig = z.infer<typeof authConfigResponse>;
