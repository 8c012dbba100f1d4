const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function passwordResetMail(name: string, link: string): { subject: string; text: string; html: string } {
  return {
    subject: 'Reset your Mixroom password',
    text: `Hi ${name},\n\nSomeone asked to reset the password of your Mixroom account. Open this link within the hour to choose a new one:\n\n${link}\n\nIf it wasn't you, ignore this e-mail: your password stays as it is.\n`,
    html: `<p>Hi ${escape(name)},</p><p>Someone asked to reset the password of your Mixroom account. Open this link within the hour to choose a new one:</p><p><a href="${escape(link)}">Choose a new password</a></p><p>If it wasn't you, ignore this e-mail: your password stays as it is.</p>`,
  };
}
