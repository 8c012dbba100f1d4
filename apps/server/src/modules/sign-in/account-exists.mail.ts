const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Sent instead of telling a sign-up form that the address is taken (that would reveal the account). */
export function accountExistsMail(name: string, signInUrl: string): { subject: string; text: string; html: string } {
  const intro =
    'Someone tried to create a new Mixroom account with this e-mail address. You already have an account, so no new one was made.';
  const next =
    'If it was you, sign in with your password; if you forgot it, choose “Forgot your password?” on the sign-in page.';
  const ignore = 'If it wasn’t you, ignore this e-mail: nothing has changed.';
  return {
    subject: 'You already have a Mixroom account',
    text: `Hi ${name},\n\n${intro}\n\n${next}\n\n${signInUrl}\n\n${ignore}\n`,
    html: `<p>Hi ${escape(name)},</p><p>${escape(intro)}</p><p>${escape(next)}</p><p><a href="${escape(signInUrl)}">Sign in to Mixroom</a></p><p>${escape(ignore)}</p>`,
  };
}
